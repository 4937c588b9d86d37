import { createContext, useContext, type ReactNode } from 'react';

/**
 * What the chat's tools need from the app around them. The web app calls the API itself; the extension's pages go
 * through the background (the only holder of its token). The components are the same.
 */
export type ChatServices = {
  /** Speech to text on the server, for browsers whose own recognition cannot work. Resolves with the words. */
  transcribe: (audio: Blob, signal: AbortSignal) => Promise<string>;
  /** A message in another language (`target` is the language's English name). Resolves with the translation. */
  translate: (input: { text: string; target: string; model?: string }) => Promise<string>;
  /** Words for a failed call (the server's localized message, or "no connection"); null lets the tool say its own. */
  errorText: (error: unknown) => string | null;
  /**
   * Shown under "Microphone access was denied" where the page cannot ask for it itself (a browser's side panel shows
   * no permission prompt): how to allow it.
   */
  microphoneHelp?: ReactNode;
  /**
   * A way to the plans under a failure that a better plan would avoid (out of credits, the free tier's daily limit,
   * a plan required); null for any other failure.
   */
  upgradeLink?: (error: unknown) => ReactNode;
};

const ChatServicesContext = createContext<ChatServices | null>(null);

export function ChatServicesProvider({ value, children }: { value: ChatServices; children: ReactNode }) {
  return <ChatServicesContext.Provider value={value}>{children}</ChatServicesContext.Provider>;
}

/** The services of the chat around this component; a chat without them is a programming error. */
export function useChatServices(): ChatServices {
  const services = useContext(ChatServicesContext);
  if (!services) throw new Error('useChatServices: wrap the chat in <ChatServicesProvider>');
  return services;
}
