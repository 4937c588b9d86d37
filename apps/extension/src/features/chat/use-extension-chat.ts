import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatHistory, ChatRequest, ModelId } from '@parley/contract';
import { applyChunk, emptyAnswer, endAnswer, type AnswerState, type ChatViewMessage } from '@parley/ui/chat';
import { apiCall } from '../../platform/messaging/messaging';
import type { AttachedFile, PageContent } from '../../platform/messaging/protocol';
import { createChatPortClient, type ChatPortClient } from './chat-port';

type Message = ChatViewMessage & { answer: AnswerState | null };

/** One question: its text and everything that goes with it. */
export type ExtensionChatTurn = {
  text: string;
  model: ModelId;
  page?: PageContent | null;
  files?: Pick<AttachedFile, 'name' | 'mediaType' | 'dataUrl'>[];
  webSearch?: boolean;
  /** A web page or video to talk about. */
  url?: string;
};

let counter = 0;
const newKey = () => `t${Date.now().toString(36)}${(counter += 1)}`;

const view = (
  answer: AnswerState,
  key: string,
  fallbackLabel: string | null,
  model: string | null,
  createdAt = new Date().toISOString(),
): Message => ({
  key,
  role: 'assistant',
  text: answer.text,
  status: answer.status,
  model: answer.start?.model ?? model,
  createdAt,
  modelLabel: answer.start?.modelLabel ?? fallbackLabel,
  error: answer.error,
  errorStatus: answer.errorStatus ?? null,
  sources: answer.sources,
  answer,
});

/**
 * The conversation of this panel: questions go to the background over CHAT_PORT, answers are rebuilt chunk by
 * chunk with the shared reducer. The conversation is kept on the server like the web app's (same chatId).
 */
export function useExtensionChat(labelOf: (model: string) => string | null) {
  const [messages, setMessages] = useState<Message[]>([]);
  const [streaming, setStreaming] = useState<string | null>(null);
  const chatId = useRef<string | null>(null);
  const client = useRef<ChatPortClient | null>(null);
  const labels = useRef(labelOf);
  useEffect(() => {
    labels.current = labelOf;
  });

  useEffect(() => {
    const c = createChatPortClient();
    client.current = c;
    return () => {
      c.close();
      client.current = null;
    };
  }, []);

  const ask = useCallback(
    ({ text, model, page = null, files = [], webSearch = false, url }: ExtensionChatTurn, regenerate = false) => {
      const c = client.current;
      if (!c) return;
      if (regenerate && !chatId.current) return;
      const id = newKey();
      const label = labels.current(model);
      const update = (change: (a: AnswerState) => AnswerState) =>
        setMessages((list) =>
          list.map((m) => (m.key === id && m.answer ? view(change(m.answer), id, label, model, m.createdAt) : m)),
        );
      // A new answer to the last question replaces the last answer; a question is added with its answer.
      setMessages((list) =>
        regenerate
          ? [
              ...list.slice(0, list.at(-1)?.role === 'assistant' ? -1 : list.length),
              view(emptyAnswer(), id, label, model),
            ]
          : [
              ...list,
              {
                key: `${id}-q`,
                role: 'user',
                createdAt: new Date().toISOString(),
                text,
                status: 'complete',
                modelLabel: null,
                error: null,
                sources: [],
                answer: null,
                ...(page || url || files.length > 0
                  ? {
                      attachments: [
                        ...(page ? [page.title || page.url] : []),
                        ...(url ? [url] : []),
                        ...files.map((f) => f.name),
                      ],
                    }
                  : {}),
              },
              view(emptyAnswer(), id, label, model),
            ],
      );
      setStreaming(id);
      const request: ChatRequest = {
        model,
        text,
        webSearch,
        regenerate,
        ...(url ? { url } : {}),
        ...(chatId.current ? { chatId: chatId.current } : {}),
        ...(page ? { page: { url: page.url, title: page.title.slice(0, 500), text: page.text } } : {}),
      };
      const finish = () => {
        setStreaming((current) => (current === id ? null : current));
        // The credits in the header: a turn spends one (or gives it back when it failed before any output).
        apiCall('profile').catch(() => undefined);
      };
      c.start(
        id,
        request,
        {
          onChunk: (chunk) => {
            if (chunk.type === 'start' && chunk.messageMetadata?.chatId) chatId.current = chunk.messageMetadata.chatId;
            update((a) => applyChunk(a, chunk));
          },
          onDone: () => {
            update(endAnswer);
            finish();
          },
          onError: (error) => {
            // The server's refusals are already in the person's language; the extension's own (no connection, a
            // broken stream, signed out meanwhile) are not: the list says "could not be completed" in its words.
            const own = error.status === 0 || error.code === 'STREAM_ERROR' || error.code === 'UNAUTHENTICATED';
            update((a) => ({
              ...a,
              status: 'failed',
              error: own ? null : error.message,
              errorStatus: own ? null : error.status,
            }));
            finish();
          },
        },
        files.map(({ name, mediaType, dataUrl }) => ({ name, mediaType, dataUrl })),
      );
    },
    [],
  );

  const send = useCallback((turn: ExtensionChatTurn) => ask(turn), [ask]);
  /** The last answer again, from the same question (the server drops the old one). */
  const regenerate = useCallback((model: ModelId) => ask({ text: '', model }, true), [ask]);

  const stop = useCallback(() => {
    if (!streaming) return;
    client.current?.abort(streaming);
    setMessages((list) =>
      list.map((m) =>
        m.key === streaming && m.answer
          ? view(endAnswer(m.answer), m.key, m.modelLabel, m.model ?? null, m.createdAt)
          : m,
      ),
    );
    setStreaming(null);
  }, [streaming]);

  /** Shows a stored conversation; the next question continues it. */
  const open = useCallback(
    (history: ChatHistory) => {
      if (streaming) client.current?.abort(streaming);
      chatId.current = history.chatHistoryId;
      setStreaming(null);
      setMessages(
        history.messages.map((m): Message =>
          m.role === 'user'
            ? {
                key: m.id,
                role: 'user',
                createdAt: m.createdAt,
                text: m.text,
                status: 'complete',
                modelLabel: null,
                error: null,
                sources: [],
                answer: null,
                ...(m.attachments.length > 0 ? { attachments: m.attachments.map((a) => a.name) } : {}),
              }
            : {
                key: m.id,
                role: 'assistant',
                createdAt: m.createdAt,
                text: m.text,
                status: m.status,
                model: m.model,
                modelLabel: (m.model && labels.current(m.model)) ?? m.model,
                error: null,
                sources: m.sources,
                answer: null,
              },
        ),
      );
    },
    [streaming],
  );

  const reset = useCallback(() => {
    if (streaming) client.current?.abort(streaming);
    chatId.current = null;
    setStreaming(null);
    setMessages([]);
  }, [streaming]);

  return {
    messages,
    streaming: streaming !== null,
    send,
    regenerate,
    stop,
    reset,
    open,
    chatId: () => chatId.current,
  };
}
