/** Build-time origins (wxt.config.ts). Exact origins: compared with ===, never with startsWith or a regex. */
export const API_ORIGIN: string = import.meta.env.PARLEY_API_URL;
export const WEB_ORIGIN: string = import.meta.env.PARLEY_WEB_URL;

export const webUrl = (path: string) => new URL(path, WEB_ORIGIN).toString();
