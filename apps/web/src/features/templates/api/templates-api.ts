import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ImportBody,
  Shortcut,
  ShortcutInput,
  Signature,
  SignatureInput,
  Template,
  TemplateInput,
  TemplateKind,
} from '@parley/contract';
import { apiClient } from '../../../lib/api';
import { postTemplatesChanged } from '../../../lib/extension-bridge';

/**
 * Every change the server accepted is told to the extension (lib/extension-bridge), which fetches the lists again at
 * once: what the person just made is offered on the sites without waiting.
 */
const changed = postTemplatesChanged;

/** A call's data with the server's localized message saying what was done. */
type Answer<T> = Promise<{ data: T; message: string }>;

export const templateKeys = {
  all: ['templates'] as const,
  list: ['templates', 'list'] as const,
  detail: (id: string) => ['templates', 'detail', id] as const,
  signatures: ['templates', 'signatures'] as const,
  shortcuts: ['templates', 'shortcuts'] as const,
  shortcutExists: (key: string) => ['templates', 'shortcut-exists', key] as const,
};

const fetchTemplates = () => apiClient.call('templates').then((data) => data.templates);
const fetchSignatures = () => apiClient.call('signatures').then((data) => data.signatures);
const fetchShortcuts = () => apiClient.call('shortcuts').then((data) => data.shortcuts);

/** The person's templates, in their order. */
export const useTemplates = () => useQuery({ queryKey: templateKeys.list, queryFn: fetchTemplates });

/** One template; the list's copy shows at once when the list is loaded. */
export function useTemplate(id: string | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: templateKeys.detail(id ?? ''),
    queryFn: () => apiClient.call('template', { params: { id: id! } }),
    enabled: Boolean(id),
    initialData: () => queryClient.getQueryData<Template[]>(templateKeys.list)?.find((t) => t.id === id),
  });
}

export const useSignatures = () => useQuery({ queryKey: templateKeys.signatures, queryFn: fetchSignatures });
export const useShortcuts = () => useQuery({ queryKey: templateKeys.shortcuts, queryFn: fetchShortcuts });

/** Everything an export holds, read fresh from the server. */
export function useFetchEverything() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.fetchQuery({ queryKey: templateKeys.list, queryFn: fetchTemplates, staleTime: 0 }),
      queryClient.fetchQuery({ queryKey: templateKeys.signatures, queryFn: fetchSignatures, staleTime: 0 }),
      queryClient.fetchQuery({ queryKey: templateKeys.shortcuts, queryFn: fetchShortcuts, staleTime: 0 }),
    ]).then(([templates, signatures, shortcuts]) => ({ templates, signatures, shortcuts }));
}

/** Adds or changes a template; the answer goes into the list and the template's own cache. */
export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: TemplateInput }): Answer<Template> =>
      id
        ? apiClient.request('updateTemplate', { params: { id }, body: input })
        : apiClient.request('addTemplate', { body: input }),
    onSuccess: ({ data }) => {
      changed();
      queryClient.setQueryData(templateKeys.detail(data.id), data);
      queryClient.setQueryData<Template[]>(templateKeys.list, (list) =>
        list
          ? list.some((t) => t.id === data.id)
            ? list.map((t) => (t.id === data.id ? data : t))
            : [...list, data]
          : list,
      );
      void queryClient.invalidateQueries({ queryKey: templateKeys.list });
    },
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.request('deleteTemplate', { params: { id } }),
    onSuccess: (_answer, id) => {
      changed();
      queryClient.setQueryData<Template[]>(templateKeys.list, (list) => list?.filter((t) => t.id !== id));
      queryClient.removeQueries({ queryKey: templateKeys.detail(id) });
    },
  });
}

/**
 * Puts the templates in a new order: the list shows it at once and takes the server's answer; a refusal puts back
 * what the server has (REORDER_MISMATCH: the set changed meanwhile, elsewhere).
 */
export function useReorderTemplates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ordered: Template[]) =>
      apiClient.request('reorderTemplates', { body: { ids: ordered.map((t) => t.id) } }),
    onMutate: async (ordered) => {
      await queryClient.cancelQueries({ queryKey: templateKeys.list });
      queryClient.setQueryData(templateKeys.list, ordered);
    },
    onSuccess: ({ data }) => {
      changed();
      queryClient.setQueryData(templateKeys.list, data.templates);
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: templateKeys.list }),
  });
}

export type DraftRequest = {
  prompt: string;
  kind: TemplateKind;
  language?: TemplateInput['language'];
  tone?: TemplateInput['tone'];
  length?: TemplateInput['length'];
};

/** A template written by the AI from a sentence; not saved. */
export const useTemplateDraft = () =>
  useMutation({
    mutationFn: ({ prompt, kind, language, tone, length }: DraftRequest) =>
      apiClient.call('templateAi', {
        query: {
          prompt,
          kind,
          ...(language ? { language } : {}),
          ...(tone ? { tone } : {}),
          ...(length ? { length } : {}),
        },
      }),
  });

export function useImportTemplates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportBody) => apiClient.call('importTemplates', { body }),
    onSuccess: () => {
      changed();
      void queryClient.invalidateQueries({ queryKey: templateKeys.all });
    },
  });
}

export function useSaveSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: SignatureInput }): Answer<Signature> =>
      id
        ? apiClient.request('updateSignature', { params: { id }, body: input })
        : apiClient.request('addSignature', { body: input }),
    onSuccess: ({ data }) => {
      changed();
      queryClient.setQueryData<Signature[]>(templateKeys.signatures, (list) =>
        list
          ? list.some((s) => s.id === data.id)
            ? list.map((s) => (s.id === data.id ? data : s))
            : [...list, data]
          : list,
      );
      // Being the default somewhere stops another signature being the default there: read them all again.
      void queryClient.invalidateQueries({ queryKey: templateKeys.signatures });
    },
  });
}

export function useDeleteSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.request('deleteSignature', { params: { id } }),
    onSuccess: (_answer, id) => {
      changed();
      queryClient.setQueryData<Signature[]>(templateKeys.signatures, (list) => list?.filter((s) => s.id !== id));
    },
  });
}

export function useSaveShortcut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: ShortcutInput }): Answer<Shortcut> =>
      id
        ? apiClient.request('updateShortcut', { params: { id }, body: input })
        : apiClient.request('addShortcut', { body: input }),
    onSuccess: ({ data }) => {
      changed();
      queryClient.setQueryData<Shortcut[]>(templateKeys.shortcuts, (list) =>
        list
          ? list.some((s) => s.id === data.id)
            ? list.map((s) => (s.id === data.id ? data : s))
            : [...list, data]
          : list,
      );
      void queryClient.invalidateQueries({ queryKey: ['templates', 'shortcut-exists'] });
    },
  });
}

export function useDeleteShortcut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.request('deleteShortcut', { params: { id } }),
    onSuccess: (_answer, id) => {
      changed();
      queryClient.setQueryData<Shortcut[]>(templateKeys.shortcuts, (list) => list?.filter((s) => s.id !== id));
      void queryClient.invalidateQueries({ queryKey: ['templates', 'shortcut-exists'] });
    },
  });
}

/** Whether a (valid) key is already one of the person's shortcuts; `key` empty: not asked. */
export const useShortcutExists = (key: string) =>
  useQuery({
    queryKey: templateKeys.shortcutExists(key),
    queryFn: () => apiClient.call('shortcutExists', { query: { key } }),
    enabled: key !== '',
    staleTime: 10_000,
  });

/** A shortcut's text written by the AI from a sentence; not saved. */
export const useShortcutDraft = () =>
  useMutation({
    mutationFn: (prompt: string) => apiClient.call('shortcutAi', { query: { prompt } }).then((d) => d.text),
  });
