import { useCallback, useEffect, useRef, useState } from 'react';

type RecognitionResultList = ArrayLike<{ isFinal: boolean; 0: { transcript: string } }>;
type Recognition = {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: { resultIndex: number; results: RecognitionResultList }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start: () => void;
  stop: () => void;
  abort: () => void;
};
type RecognitionConstructor = new () => Recognition;

const LOCALES: Record<string, string> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR' };

function browserRecognition(): RecognitionConstructor | null {
  const w = window as unknown as {
    SpeechRecognition?: RecognitionConstructor;
    webkitSpeechRecognition?: RecognitionConstructor;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

export type VoiceState = 'idle' | 'listening' | 'recording' | 'transcribing';
export type VoiceProblem = { key: 'denied' | 'noMicrophone' | 'unsupported' | 'failed' } | { error: unknown };

/**
 * Recognition errors that say the browser's own recognition cannot work here (Chromium builds without a speech
 * service, a recognizer that cannot open the microphone, a language it lacks), as opposed to the person refusing.
 */
const RECOGNITION_UNUSABLE = new Set(['network', 'audio-capture', 'service-not-allowed', 'language-not-supported']);
/** Once the browser's recognition has failed that way, this page records instead. */
let recognitionUnusable = false;

/**
 * Voice input: the browser's own speech recognition when it has one and it works; otherwise the microphone is
 * recorded (MediaRecorder) and the recording is transcribed by the server (`transcribe`, given by the app).
 * `cancel` throws the recording away.
 */
export function useVoiceInput({
  language,
  transcribe,
  onText,
  onProblem,
}: {
  language: string;
  transcribe: (audio: Blob, signal: AbortSignal) => Promise<string>;
  onText: (text: string) => void;
  onProblem: (problem: VoiceProblem) => void;
}) {
  const [state, setState] = useState<VoiceState>('idle');
  const [seconds, setSeconds] = useState(0);
  const recognition = useRef<Recognition | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const cancelled = useRef(false);
  const upload = useRef<AbortController | null>(null);
  const handlers = useRef({ onText, onProblem, transcribe });
  useEffect(() => {
    handlers.current = { onText, onProblem, transcribe };
  });

  useEffect(() => {
    if (state !== 'recording') return;
    setSeconds(0);
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [state]);

  const record = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      handlers.current.onProblem({ key: 'unsupported' });
      setState('idle');
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      const name = (error as Error)?.name;
      handlers.current.onProblem({
        key: name === 'NotFoundError' || name === 'OverconstrainedError' ? 'noMicrophone' : 'denied',
      });
      setState('idle');
      return;
    }
    if (cancelled.current) {
      stream.getTracks().forEach((track) => track.stop());
      return;
    }
    const rec = new MediaRecorder(stream);
    const chunks: Blob[] = [];
    rec.ondataavailable = (event) => {
      if (event.data.size) chunks.push(event.data);
    };
    rec.onstop = () => {
      stream.getTracks().forEach((track) => track.stop());
      recorder.current = null;
      if (cancelled.current || chunks.length === 0) {
        setState('idle');
        return;
      }
      setState('transcribing');
      const controller = new AbortController();
      upload.current = controller;
      handlers.current
        .transcribe(new Blob(chunks, { type: rec.mimeType || 'audio/webm' }), controller.signal)
        .then((text) => {
          if (text.trim()) handlers.current.onText(text.trim());
        })
        .catch((error: unknown) => {
          if ((error as Error)?.name === 'AbortError' || controller.signal.aborted) return;
          handlers.current.onProblem({ error });
        })
        .finally(() => {
          upload.current = null;
          setState('idle');
        });
    };
    recorder.current = rec;
    rec.start();
    setState('recording');
  }, []);

  const start = useCallback(async () => {
    cancelled.current = false;
    const Recognition = recognitionUnusable ? null : browserRecognition();
    if (Recognition) {
      let heard = false;
      let fallBack = false;
      const r = new Recognition();
      r.lang = LOCALES[language] ?? language;
      r.continuous = true;
      r.interimResults = false;
      r.onresult = (event) => {
        for (let i = event.resultIndex; i < event.results.length; i += 1) {
          const result = event.results[i];
          if (result?.isFinal && !cancelled.current) {
            heard = true;
            handlers.current.onText(result[0].transcript.trim());
          }
        }
      };
      r.onerror = (event) => {
        if (RECOGNITION_UNUSABLE.has(event.error)) {
          recognitionUnusable = true;
          // Nothing was said yet: the same click goes on as a recording.
          if (!heard && !cancelled.current) {
            fallBack = true;
            return;
          }
        }
        if (event.error === 'not-allowed') handlers.current.onProblem({ key: 'denied' });
        else if (event.error !== 'aborted' && event.error !== 'no-speech')
          handlers.current.onProblem({ key: 'failed' });
      };
      r.onend = () => {
        recognition.current = null;
        if (fallBack && !cancelled.current) {
          void record();
          return;
        }
        setState('idle');
      };
      recognition.current = r;
      r.start();
      setState('listening');
      return;
    }

    await record();
  }, [language, record]);

  /** Stops listening and keeps what was said. */
  const stop = useCallback(() => {
    recognition.current?.stop();
    if (recorder.current?.state === 'recording') recorder.current.stop();
  }, []);

  /** Stops and throws away what was said. */
  const cancel = useCallback(() => {
    cancelled.current = true;
    recognition.current?.abort();
    if (recorder.current?.state === 'recording') recorder.current.stop();
    upload.current?.abort();
    setState('idle');
  }, []);

  useEffect(() => () => cancel(), [cancel]);

  return { state, seconds, start, stop, cancel };
}
