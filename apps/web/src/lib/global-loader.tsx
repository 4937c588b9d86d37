import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

/** Kinds of work the global loader can describe (spec §2); each has its own rotating messages. */
export const LOADER_TYPES = [
  'general',
  'saving',
  'settings',
  'automation',
  'connect',
  'getPosts',
  'getPostsByKeyword',
  'scrapeProfiles',
] as const;
export type LoaderType = (typeof LOADER_TYPES)[number];

type LoaderState = { active: boolean; type: LoaderType };
type LoaderContextValue = LoaderState & { show: (type?: LoaderType) => void; hide: () => void };

const LoaderContext = createContext<LoaderContextValue | null>(null);

export function GlobalLoaderProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<LoaderState>({ active: false, type: 'general' });
  const show = useCallback((type: LoaderType = 'general') => setState({ active: true, type }), []);
  const hide = useCallback(() => setState((s) => ({ ...s, active: false })), []);
  const value = useMemo(() => ({ ...state, show, hide }), [state, show, hide]);
  return <LoaderContext.Provider value={value}>{children}</LoaderContext.Provider>;
}

export function useGlobalLoader(): LoaderContextValue {
  const value = useContext(LoaderContext);
  if (!value) throw new Error('useGlobalLoader needs <GlobalLoaderProvider>');
  return value;
}

/** Runs `work` with the loader on, whatever the outcome. */
export function useWithLoader() {
  const { show, hide } = useGlobalLoader();
  return useCallback(
    async <T,>(type: LoaderType, work: () => Promise<T>): Promise<T> => {
      show(type);
      try {
        return await work();
      } finally {
        hide();
      }
    },
    [show, hide],
  );
}
