import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { NEXT_PARAM, returnPath, withReturnPath } from '../../../lib/safe-path';

export const authLinkClass = 'font-medium text-blue-600 hover:underline dark:text-blue-400';

/**
 * `page` carrying this page's ?next= along, so moving between log in, sign up and the other sign-in pages still
 * returns to the page the visitor was sent away from.
 */
export function useWithNext() {
  const [params] = useSearchParams();
  const next = returnPath(params.get(NEXT_PARAM));
  return (page: string) => withReturnPath(page, next);
}

/** Whether the previous entry of this tab's history is a page of this site. */
function cameFromThisSite(): boolean {
  // React Router numbers the entries it made; a page loaded from a link of ours (the login page) has our referrer.
  const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
  if (index > 0) return true;
  try {
    return window.history.length > 1 && new URL(document.referrer).origin === window.location.origin;
  } catch {
    return false;
  }
}

/** "← Back": the previous page of this visit, or the login page when the visitor arrived here directly. */
export function BackLink() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const withNext = useWithNext();
  const fallback = withNext('/login');
  return (
    <Link
      to={fallback}
      onClick={(event) => {
        if (cameFromThisSite()) {
          event.preventDefault();
          void navigate(-1);
        }
      }}
      className="-ml-1 mb-4 inline-flex items-center gap-1 rounded px-1 text-sm font-medium text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
    >
      <span aria-hidden="true">←</span> {t('back')}
    </Link>
  );
}
