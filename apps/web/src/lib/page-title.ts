import { useEffect } from 'react';

export const APP_NAME = 'Parley';

/** Sets the tab title to 'title | Parley'. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} | ${APP_NAME}` : APP_NAME;
  }, [title]);
}
