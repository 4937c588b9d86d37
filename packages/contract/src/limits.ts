/** Input bounds shared by server validation and client forms (zod-free). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const CHAT_TEXT_MAX = 32_000;
/** A conversation's name, as a person gives it. */
export const CHAT_TITLE_MAX = 120;

/** Attachments in chat: how many per message and how large (the server enforces them; clients say so early). */
export const ATTACHMENT_LIMITS = {
  maxFiles: 5,
  imageMaxBytes: 10 * 1024 * 1024,
  pdfMaxBytes: 25 * 1024 * 1024,
  pdfMaxPages: 500,
} as const;
