import type { UiLanguage } from '@parley/contract';

/** What a service needs to know about the caller beyond the input. */
export type RequestContext = {
  ip: string;
  lang: UiLanguage;
  userAgent?: string | undefined;
  deviceType?: string | undefined;
};
