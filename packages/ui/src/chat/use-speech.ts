import { useCallback, useEffect, useState } from 'react';

const LOCALES: Record<string, string> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR' };

/** Markdown read aloud: the words, not the symbols; code blocks are skipped. */
export function speechText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/[*_~`|]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Errors that mean "stopped on purpose" (by cancel or by another reading), not a failure. */
const STOPPED = new Set(['interrupted', 'canceled']);

/**
 * Read aloud with the browser's speech synthesis, one message at a time, in a voice of the interface language.
 * `failed` names the message that could not be read (a browser without voices fails every utterance at once).
 */
export function useSpeech(language: string) {
  const supported = typeof window !== 'undefined' && 'speechSynthesis' in window;
  const [speaking, setSpeaking] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const stop = useCallback(() => {
    if (supported) window.speechSynthesis.cancel();
    setSpeaking(null);
    setFailed(null);
  }, [supported]);

  const toggle = useCallback(
    (key: string, text: string) => {
      if (!supported) return;
      const synth = window.speechSynthesis;
      synth.cancel();
      setFailed(null);
      if (speaking === key) {
        setSpeaking(null);
        return;
      }
      const utterance = new SpeechSynthesisUtterance(speechText(text));
      const lang = LOCALES[language] ?? language;
      utterance.lang = lang;
      const voices = synth.getVoices().filter((v) => v.lang.toLowerCase().startsWith(language.toLowerCase()));
      const voice =
        voices.find((v) => v.lang === lang && v.default) ?? voices.find((v) => v.lang === lang) ?? voices[0];
      if (voice) utterance.voice = voice;
      const done = () => setSpeaking((current) => (current === key ? null : current));
      utterance.onend = done;
      utterance.onerror = (event) => {
        done();
        if (!STOPPED.has(event.error)) setFailed(key);
      };
      setSpeaking(key);
      synth.speak(utterance);
    },
    [supported, speaking, language],
  );

  useEffect(
    () => () => {
      if (supported) window.speechSynthesis.cancel();
    },
    [supported],
  );

  return { supported, speaking, failed, toggle, stop };
}

export type Speech = ReturnType<typeof useSpeech>;
