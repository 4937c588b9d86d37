import { ATTACHMENT_LIMITS } from '@parley/contract/values';

/**
 * What the composer accepts before anything is uploaded (spec §5); the server checks the bytes again with the same
 * limits (the contract's ATTACHMENT_LIMITS).
 */
export const MAX_FILES = ATTACHMENT_LIMITS.maxFiles;
const MB = 1024 * 1024;
export const IMAGE_MAX_MB = ATTACHMENT_LIMITS.imageMaxBytes / MB;
export const PDF_MAX_MB = ATTACHMENT_LIMITS.pdfMaxBytes / MB;

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp'];
/** The file input's `accept` attribute. */
export const ACCEPT = [...IMAGE_TYPES, 'application/pdf', '.pdf', '.png', '.jpg', '.jpeg', '.gif', '.webp'].join(',');

export type AttachmentKind = 'image' | 'pdf';
export type FileProblem =
  | { key: 'unsupported' }
  | { key: 'invalid' }
  | { key: 'notImage' }
  | { key: 'tooMany'; limit: number }
  | { key: 'tooLarge'; limit: number };

export function fileKind(file: Pick<File, 'name' | 'type'>): AttachmentKind | null {
  const type = file.type.toLowerCase();
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  if (IMAGE_TYPES.includes(type) || (!type && IMAGE_EXTENSIONS.includes(extension))) return 'image';
  if (type === 'application/pdf' || (!type && extension === 'pdf')) return 'pdf';
  return null;
}

/**
 * Splits picked, dropped or pasted files into the ones to attach and the first problem to tell the person.
 * `imagesOnly` is for places where only an image makes sense (a pasted screenshot).
 */
export function checkFiles(
  files: readonly File[],
  { existing = 0, imagesOnly = false }: { existing?: number; imagesOnly?: boolean } = {},
): { accepted: File[]; problem: FileProblem | null } {
  const accepted: File[] = [];
  let problem: FileProblem | null = null;
  for (const file of files) {
    const kind = fileKind(file);
    if (!kind || (imagesOnly && kind !== 'image')) {
      problem ??= imagesOnly ? { key: 'notImage' } : { key: 'unsupported' };
      continue;
    }
    if (file.size === 0) {
      problem ??= { key: 'invalid' };
      continue;
    }
    const limit = kind === 'image' ? IMAGE_MAX_MB : PDF_MAX_MB;
    if (file.size > limit * MB) {
      problem ??= { key: 'tooLarge', limit };
      continue;
    }
    if (existing + accepted.length >= MAX_FILES) {
      problem ??= { key: 'tooMany', limit: MAX_FILES };
      continue;
    }
    accepted.push(file);
  }
  return { accepted, problem };
}
