import { useEffect, useState } from 'react';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { Image, ImageEditFields, ImageGenerationFields } from '@parley/contract';
import { editImage, generateImages, imageFileBytes, uploadImage, type ImageEditFiles } from '@parley/api-client/images';
import { apiClient } from '../../../lib/api';
import { currentUserKey } from '../../../lib/current-user';

type HistoryPage = { images: Image[]; nextCursor: string | null };
type History = InfiniteData<HistoryPage, string | undefined>;

export const imageKeys = {
  all: ['images'] as const,
  models: ['images', 'models'] as const,
  history: ['images', 'history'] as const,
  detail: (id: string) => ['images', 'detail', id] as const,
  file: (versionId: string, size: 'full' | 'thumb') => ['images', 'file', versionId, size] as const,
};

/** The image models with their price and whether this person can use each now (an own key changes it). */
export const useImageModels = () =>
  useQuery({ queryKey: imageKeys.models, queryFn: () => apiClient.call('imageModels').then((d) => d.models) });

/** The person's images, newest first, a page at a time. */
export const useImageHistory = () =>
  useInfiniteQuery({
    queryKey: imageKeys.history,
    queryFn: ({ pageParam, signal }) =>
      apiClient.call('images', { query: pageParam ? { cursor: pageParam } : {}, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

const historyImages = (queryClient: QueryClient) =>
  queryClient.getQueryData<History>(imageKeys.history)?.pages.flatMap((p) => p.images) ?? [];

/** One image with its versions; the history's copy shows at once when it is loaded. */
export function useImage(id: string | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: imageKeys.detail(id ?? ''),
    queryFn: ({ signal }) => apiClient.call('image', { params: { id: id! }, signal }),
    enabled: Boolean(id),
    initialData: () => (id ? historyImages(queryClient).find((image) => image.id === id) : undefined),
  });
}

/** The image in its own cache and in the history (new ones first). */
function remember(queryClient: QueryClient, images: Image[]) {
  for (const image of images) queryClient.setQueryData(imageKeys.detail(image.id), image);
  queryClient.setQueryData<History>(imageKeys.history, (history) => {
    if (!history) return history;
    const changed = new Map(images.map((image) => [image.id, image]));
    const pages = history.pages.map((page) => ({
      ...page,
      images: page.images.map((image) => changed.get(image.id) ?? image),
    }));
    const known = new Set(pages.flatMap((p) => p.images.map((image) => image.id)));
    const added = images.filter((image) => !known.has(image.id));
    if (added.length > 0 && pages[0]) pages[0] = { ...pages[0], images: [...added, ...pages[0].images] };
    return { ...history, pages };
  });
}

/** Credits were spent (or refunded): the header and the home page show the new balance. */
const creditsChanged = (queryClient: QueryClient) => void queryClient.invalidateQueries({ queryKey: currentUserKey });

export type GenerateInput = { fields: ImageGenerationFields; reference?: File; signal?: AbortSignal };

export function useGenerateImages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, reference, signal }: GenerateInput) => generateImages(apiClient, fields, reference, signal),
    onSuccess: ({ images }) => remember(queryClient, images),
    onSettled: () => creditsChanged(queryClient),
  });
}

export type EditInput = { fields: ImageEditFields; files?: ImageEditFiles; signal?: AbortSignal };

export function useEditImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, files, signal }: EditInput) => editImage(apiClient, fields, files, signal),
    onSuccess: ({ image }) => remember(queryClient, [image]),
    onSettled: () => creditsChanged(queryClient),
  });
}

export function useUploadImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadImage(apiClient, file, file.name || 'image.png'),
    onSuccess: ({ image }) => remember(queryClient, [image]),
  });
}

export function useDeleteImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.request('deleteImage', { params: { id } }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<History>(imageKeys.history, (history) =>
        history
          ? {
              ...history,
              pages: history.pages.map((page) => ({ ...page, images: page.images.filter((i) => i.id !== id) })),
            }
          : history,
      );
      queryClient.removeQueries({ queryKey: imageKeys.detail(id) });
    },
  });
}

/** A version's bytes (they never change: kept while the page needs them). */
export const fetchVersionBytes = (versionId: string, size: 'full' | 'thumb' = 'full') =>
  imageFileBytes(apiClient, versionId, { size });

export function useVersionBytes(versionId: string | undefined, size: 'full' | 'thumb' = 'full') {
  return useQuery({
    queryKey: imageKeys.file(versionId ?? '', size),
    queryFn: ({ signal }) => imageFileBytes(apiClient, versionId!, { size, signal }),
    enabled: Boolean(versionId),
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });
}

/**
 * A version as an object URL for <img src> (the file route needs the bearer header). The URL is revoked when the
 * component goes away or shows another version.
 */
export function useVersionUrl(versionId: string | undefined, size: 'full' | 'thumb' = 'full') {
  const bytes = useVersionBytes(versionId, size);
  const [url, setUrl] = useState<string | null>(null);
  const blob = bytes.data;
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(blob);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob]);
  return { url, failed: bytes.isError, loading: bytes.isPending && Boolean(versionId) };
}
