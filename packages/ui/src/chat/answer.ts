import type { StartMetadata, StreamChunk } from './stream.js';

/** One answer as its chunks build it up: what the web chat and the extension's chat both show. */
export type AnswerState = {
  text: string;
  sources: { n: number; title: string; url: string }[];
  citedPages: number[];
  status: 'streaming' | 'complete' | 'stopped' | 'failed';
  /** The stream's own error text (the `error` chunk), if any. */
  error: string | null;
  /** The HTTP status of a refusal (402: credits or plan), when the server refused the turn. */
  errorStatus?: number | null;
  /** From the `start` chunk: the conversation, the stored question and the model that answers. */
  start: Partial<StartMetadata> | null;
};

export const emptyAnswer = (): AnswerState => ({
  text: '',
  sources: [],
  citedPages: [],
  status: 'streaming',
  error: null,
  start: null,
});

/** The answer after one more chunk (pure: a new object when something changed). */
export function applyChunk(answer: AnswerState, chunk: StreamChunk): AnswerState {
  switch (chunk.type) {
    case 'start':
      return { ...answer, start: { ...answer.start, ...chunk.messageMetadata } };
    case 'source-url': {
      const n = Number(/(\d+)$/.exec(chunk.sourceId)?.[1] ?? answer.sources.length + 1);
      return { ...answer, sources: [...answer.sources, { n, title: chunk.title || chunk.url, url: chunk.url }] };
    }
    case 'text-delta':
      return { ...answer, text: answer.text + chunk.delta };
    case 'finish':
      return {
        ...answer,
        status: answer.status === 'failed' ? 'failed' : 'complete',
        citedPages: chunk.messageMetadata?.citedPages ?? answer.citedPages,
      };
    case 'error':
      return { ...answer, status: 'failed', error: chunk.errorText };
    case 'abort':
      return answer.status === 'streaming' ? { ...answer, status: 'stopped' } : answer;
    default:
      return answer;
  }
}

/** The stream ended (or was stopped) without `finish`: what arrived stays, marked as cut short. */
export const endAnswer = (answer: AnswerState): AnswerState =>
  answer.status === 'streaming' ? { ...answer, status: 'stopped' } : answer;
