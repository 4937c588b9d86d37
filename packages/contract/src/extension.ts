import { z } from 'zod';

/** What /install offers: the browser extension this server was built with, and the store listing when there is one. */
export const extensionInfoSchema = z.object({
  /** Whether this server has a built extension to download. */
  available: z.boolean(),
  /** The built extension's version (its manifest's), or null when none is built. */
  version: z.string().nullable(),
  /** Name the download is saved under. */
  fileName: z.string().nullable(),
  /** Size of the download in bytes. */
  size: z.number().int().nonnegative().nullable(),
  /** The extension's page in a browser's web store, when the server names one (EXTENSION_STORE_URL). */
  storeUrl: z.string().nullable(),
});
export type ExtensionInfo = z.infer<typeof extensionInfoSchema>;
