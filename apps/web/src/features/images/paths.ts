/** The feature's pages (spec §2). */
export const IMAGE_PATHS = {
  generation: '/image-generation',
  editor: '/image-editor',
  /** The editor with one of the person's images open. */
  edit: (imageId: string) => `/image-editor/${encodeURIComponent(imageId)}`,
} as const;
