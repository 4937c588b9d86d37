import { z } from 'zod';

/** Every success response: `{ status, message, data }`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.number().int(), message: z.string(), data });
}

export type Envelope<T> = { status: number; message: string; data: T };
