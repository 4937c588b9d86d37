import { useLocation, useParams, useSearchParams } from 'react-router';
import { ExtensionPageNotice, InstallGuide } from '../../features/install';
import { sameSitePath } from '../../lib/safe-path';
import { useToken } from '../../lib/session';

/** /install and /install/:id. `?next=/on-boarding/2` (a page of this site) is where Continue leads. */
export function InstallPage() {
  const token = useToken();
  const { id } = useParams();
  const [params] = useSearchParams();
  const next = sameSitePath(params.get('next'));
  return <InstallGuide continueTo={next ?? (token ? '/home' : '/login')} source={id} />;
}

/** /extensionIndex.html opened on the web: the extension's own page, explained. */
export function ExtensionIndexPage() {
  return <ExtensionPageNotice path={useLocation().pathname} />;
}
