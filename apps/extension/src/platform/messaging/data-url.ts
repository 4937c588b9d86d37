/**
 * Runtime messages and ports carry JSON only: files travel between our pages and the background as data: URLs (see
 * AttachedFile in protocol.ts) and become bytes again where they are sent.
 */
export async function blobToDataUrl(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${blob.type || 'application/octet-stream'};base64,${btoa(binary)}`;
}

export function dataUrlToBlob(dataUrl: string): Blob {
  // The media type may carry parameters (`audio/webm;codecs=opus`, as MediaRecorder names its recordings).
  const match = /^data:([^,]*?)(;base64)?,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error('not a data URL');
  const [, type, base64, payload] = match;
  const bytes = base64
    ? Uint8Array.from(atob(payload!), (c) => c.charCodeAt(0))
    : new TextEncoder().encode(decodeURIComponent(payload!));
  return new Blob([bytes], { type: type || 'application/octet-stream' });
}
