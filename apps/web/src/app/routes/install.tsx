import { useParams } from 'react-router';
import { InstallGuide } from '../../features/install';
import { useToken } from '../../lib/session';

export function InstallPage() {
  const token = useToken();
  const { id } = useParams();
  return <InstallGuide continueTo={token ? '/home' : '/login'} source={id} />;
}
