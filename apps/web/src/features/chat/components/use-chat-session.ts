import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Attachment, ChatHistory, ChatRequest, ModelId, Source } from '@parley/contract';
import { applyChunk, emptyAnswer, endAnswer, fileKind, type AnswerState, type AttachmentKind } from '@parley/ui/chat';
import { ApiError, errorMessage } from '../../../lib/api';
import { currentUserKey } from '../../../lib/current-user';
import { streamChat } from '../api/chat-api';

/** How long after a new chat's first answer its generated title is looked for again. */
const TITLE_DELAY_MS = 2500;

/** A file sent from this page, shown from memory until the conversation is reloaded. */
export type LocalFile = { name: string; kind: AttachmentKind; size: number; previewUrl: string | null };

export type TurnError = {
  message: string;
  status: number;
  code: string;
  /** Before the answer started (nothing was stored for it) or while it streamed. */
  phase: 'before' | 'during';
};

export type ThreadMessage = {
  /** Stable React key. */
  key: string;
  /** The server's id (user messages need it to be edited); null until the server has told it. */
  id: string | null;
  role: 'user' | 'assistant';
  text: string;
  attachments: Attachment[];
  localFiles: LocalFile[];
  /** The web page or video this turn talked about. */
  url: string | null;
  model: string | null;
  modelLabel: string | null;
  keySource: 'own' | 'server' | null;
  sources: Source[];
  citedPages: number[];
  status: 'streaming' | 'complete' | 'stopped' | 'failed';
  error: TurnError | null;
  /** When it was written (ISO 8601). */
  createdAt: string;
};

export type TurnInput = { text: string; files: File[]; url?: string | undefined; webSearch: boolean; model: ModelId };

let counter = 0;
const newKey = () => `m${Date.now().toString(36)}${(counter += 1)}`;

function message(partial: Partial<ThreadMessage> & Pick<ThreadMessage, 'role'>): ThreadMessage {
  return {
    key: newKey(),
    id: null,
    createdAt: new Date().toISOString(),
    text: '',
    attachments: [],
    localFiles: [],
    url: null,
    model: null,
    modelLabel: null,
    keySource: null,
    sources: [],
    citedPages: [],
    status: 'complete',
    error: null,
    ...partial,
  };
}

const toLocalFile = (file: File): LocalFile => {
  const kind = fileKind(file) ?? 'pdf';
  return { name: file.name, kind, size: file.size, previewUrl: kind === 'image' ? URL.createObjectURL(file) : null };
};

function fromHistory(history: ChatHistory, labelOf: (model: string) => string | null): ThreadMessage[] {
  return history.messages.map((m) =>
    message({
      id: m.id,
      createdAt: m.createdAt,
      role: m.role,
      text: m.text,
      attachments: m.attachments,
      model: m.model,
      modelLabel: m.model ? labelOf(m.model) : null,
      sources: m.sources,
      citedPages: m.citedPages,
      status: m.status,
    }),
  );
}

/** The assistant message as the shared reducer's answer state has built it so far. */
function fromAnswer(
  answer: AnswerState,
  model: string,
  labelOf: (model: string) => string | null,
): Partial<ThreadMessage> {
  return {
    text: answer.text,
    sources: answer.sources,
    citedPages: answer.citedPages,
    status: answer.status,
    error: answer.error === null ? null : { message: answer.error, status: 0, code: 'STREAM_ERROR', phase: 'during' },
    // Who answers is known from the `start` chunk on.
    ...(answer.start
      ? {
          model: answer.start.model ?? model,
          modelLabel: answer.start.modelLabel ?? labelOf(model),
          keySource: answer.start.keySource ?? null,
        }
      : {}),
  };
}

type Options = {
  /** A new conversation got its id (the page puts it in the address). */
  onChatCreated: (chatId: string) => void;
  labelOf: (model: string) => string | null;
};

/**
 * The conversation on screen and the one turn that may be streaming: sends, stops, regenerates, edits and retries,
 * reading the answer chunk by chunk. After every answer the profile is refreshed so the credits shown elsewhere
 * follow.
 */
export function useChatSession({ onChatCreated, labelOf }: Options) {
  const queryClient = useQueryClient();
  const [chatId, setChatId] = useState<string | null>(null);
  const [messages, setMessages] = useState<ThreadMessage[]>([]);
  const [streaming, setStreaming] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const chatIdRef = useRef<string | null>(null);
  const lastTurn = useRef<TurnInput | null>(null);
  const callbacks = useRef({ onChatCreated, labelOf });
  useEffect(() => {
    callbacks.current = { onChatCreated, labelOf };
  });

  const patch = useCallback((key: string, change: (m: ThreadMessage) => Partial<ThreadMessage>) => {
    setMessages((list) => list.map((m) => (m.key === key ? { ...m, ...change(m) } : m)));
  }, []);

  /** Runs one request and writes its answer into the assistant message `answerKey`, chunk by chunk (shared reducer). */
  const run = useCallback(
    async (request: ChatRequest, files: File[], userKey: string, answerKey: string) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setStreaming(true);
      let answer = emptyAnswer();
      let created = false;
      let finished = false;
      const show = (next: AnswerState) => {
        if (next === answer) return;
        answer = next;
        patch(answerKey, () => fromAnswer(next, request.model, callbacks.current.labelOf));
      };
      try {
        const chunks = await streamChat(request, files, abort.signal);
        for await (const chunk of chunks) {
          if (chunk.type === 'start') {
            const meta = chunk.messageMetadata ?? {};
            if (meta.chatId && meta.chatId !== chatIdRef.current) {
              created = !request.chatId;
              chatIdRef.current = meta.chatId;
              setChatId(meta.chatId);
              callbacks.current.onChatCreated(meta.chatId);
            }
            if (meta.userMessageId) patch(userKey, () => ({ id: meta.userMessageId! }));
          } else if (chunk.type === 'finish') finished = true;
          show(applyChunk(answer, chunk));
        }
        // The stream ended without `finish` (connection cut): what arrived stays, marked as cut short.
        show(endAnswer(answer));
      } catch (error) {
        if ((error as Error)?.name === 'AbortError') {
          show(endAnswer(answer));
        } else {
          const apiError = error instanceof ApiError ? error : null;
          patch(answerKey, () => ({
            status: 'failed',
            error: {
              message: errorMessage(error),
              status: apiError?.status ?? 0,
              code: apiError?.code ?? 'NETWORK_ERROR',
              phase: answer.start ? 'during' : 'before',
            },
          }));
        }
      } finally {
        if (controller.current === abort) {
          controller.current = null;
          setStreaming(false);
        }
        if (answer.start) {
          void queryClient.invalidateQueries({ queryKey: currentUserKey });
          void queryClient.invalidateQueries({ queryKey: ['chat', 'histories'] });
          // A new chat's generated title is written just after its first answer: the history shows it a moment later.
          if (created && finished) {
            setTimeout(() => void queryClient.invalidateQueries({ queryKey: ['chat', 'histories'] }), TITLE_DELAY_MS);
          }
        }
      }
    },
    [patch, queryClient],
  );

  const send = useCallback(
    (input: TurnInput) => {
      lastTurn.current = input;
      const user = message({
        role: 'user',
        text: input.text,
        localFiles: input.files.map(toLocalFile),
        url: input.url ?? null,
      });
      const answer = message({ role: 'assistant', status: 'streaming', model: input.model });
      setMessages((list) => [...list, user, answer]);
      const request: ChatRequest = {
        model: input.model,
        text: input.text,
        webSearch: input.webSearch,
        ...(chatIdRef.current ? { chatId: chatIdRef.current } : {}),
        ...(input.url ? { url: input.url } : {}),
      };
      void run(request, input.files, user.key, answer.key);
    },
    [run],
  );

  /** Answers the last question again (with the model now chosen). */
  const regenerate = useCallback(
    (model: ModelId) => {
      const lastUser = messages.findLastIndex((m) => m.role === 'user');
      if (!chatIdRef.current || lastUser < 0) return;
      const answer = message({ role: 'assistant', status: 'streaming', model });
      setMessages([...messages.slice(0, lastUser + 1), answer]);
      void run(
        { model, text: '', regenerate: true, chatId: chatIdRef.current },
        [],
        messages[lastUser]!.key,
        answer.key,
      );
    },
    [messages, run],
  );

  /** Replaces a question (and everything after it) with a new text, then asks again. */
  const edit = useCallback(
    (key: string, text: string, model: ModelId) => {
      const original = messages.find((m) => m.key === key);
      if (!original?.id || !chatIdRef.current) return;
      const user = message({ ...original, key: newKey(), id: null, text });
      const answer = message({ role: 'assistant', status: 'streaming', model });
      setMessages((list) => [
        ...list.slice(
          0,
          list.findIndex((m) => m.key === key),
        ),
        user,
        answer,
      ]);
      void run({ model, text, editMessageId: original.id, chatId: chatIdRef.current }, [], user.key, answer.key);
    },
    [messages, run],
  );

  /** After a failure: a turn the server never took is sent again; one that failed while answering is regenerated. */
  const retry = useCallback(
    (model: ModelId) => {
      const last = messages[messages.length - 1];
      if (!last || last.role !== 'assistant') return;
      if (last.error?.phase === 'before' && lastTurn.current) {
        setMessages((list) => list.slice(0, -2));
        send({ ...lastTurn.current, model });
      } else regenerate(model);
    },
    [messages, regenerate, send],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  const reset = useCallback(() => {
    controller.current?.abort();
    chatIdRef.current = null;
    lastTurn.current = null;
    setChatId(null);
    setMessages([]);
  }, []);

  const load = useCallback((history: ChatHistory) => {
    controller.current?.abort();
    chatIdRef.current = history.chatHistoryId;
    lastTurn.current = null;
    setChatId(history.chatHistoryId);
    setMessages(fromHistory(history, callbacks.current.labelOf));
  }, []);

  // Leaving the page stops the answer (the server keeps what was written, marked stopped).
  useEffect(() => () => controller.current?.abort(), []);

  // Object URLs of local previews are released with the messages that used them.
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const live = new Set(messages.flatMap((m) => m.localFiles.flatMap((f) => (f.previewUrl ? [f.previewUrl] : []))));
    for (const url of previews.current) if (!live.has(url)) URL.revokeObjectURL(url);
    previews.current = live;
  }, [messages]);

  return { chatId, messages, streaming, send, regenerate, edit, retry, stop, reset, load };
}

export type ChatSession = ReturnType<typeof useChatSession>;
