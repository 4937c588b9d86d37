import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AspectRatio, Image } from '@parley/contract';
import { IMAGE_COUNT_MAX, IMAGE_PROMPT_MAX } from '@parley/contract/values';
import { formatNumber } from '@parley/i18n';
import { Alert, Button, Card, SkeletonBar, cn, focusRing } from '@parley/ui';
import { CloseIcon } from '@parley/ui';
import { useGenerateImages, useImageModels } from '../api/images-api';
import { ACCEPT_IMAGES, checkImageFile, fileProblemKey, type ImageFileProblem } from '../lib/file-checks';
import { ImageCard, ratioStyle } from './image-card';
import { gridClasses, ImageHistory, useDeleteWithConfirmation } from './image-gallery';
import { UploadIcon } from './icons';
import { ableModels, ModelPicker, pickModel } from './model-picker';
import { ErrorNotice, ImagesPage, textareaClasses, useElapsed, useFormatSeconds, usePrice } from './parts';

type Props = { plansPath: string; apiKeysPath: string };

const segment = (active: boolean) =>
  cn(
    'relative inline-flex min-w-11 cursor-pointer items-center justify-center rounded-md border px-3 py-1.5 text-sm font-medium',
    'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-500 has-[:focus-visible]:ring-offset-2',
    active
      ? 'border-blue-500 bg-blue-50 text-blue-700 dark:bg-blue-500/15 dark:text-blue-300'
      : 'border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300',
  );

/**
 * /image-generation (spec §1, §2): a prompt, a model (its tier and price per image, unavailable ones disabled with
 * why), the model's shapes, 1–4 images and, for models that follow one, a reference image. While it works: the time
 * it has taken, a placeholder for each image and a way to stop. Then the images made, and the history below.
 */
export function ImageGeneration({ plansPath, apiKeysPath }: Props) {
  const { t, i18n } = useTranslation('images');
  const id = useId();
  const models = useImageModels();
  const generate = useGenerateImages();
  const price = usePrice();
  const formatSeconds = useFormatSeconds();
  const [prompt, setPrompt] = useState('');
  const [promptError, setPromptError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [ratio, setRatio] = useState<AspectRatio>('1:1');
  const [count, setCount] = useState(1);
  const [reference, setReference] = useState<File | null>(null);
  const [referenceUrl, setReferenceUrl] = useState<string | null>(null);
  const [referenceProblem, setReferenceProblem] = useState<ImageFileProblem | null>(null);
  const [results, setResults] = useState<{ images: Image[]; missing: number } | null>(null);
  const [status, setStatus] = useState('');
  const abort = useRef<AbortController | null>(null);
  const referenceInput = useRef<HTMLInputElement>(null);
  const promptField = useRef<HTMLTextAreaElement>(null);
  const elapsed = useElapsed(generate.isPending);
  const n = (value: number) => formatNumber(value, i18n.language);
  const { ask, dialog } = useDeleteWithConfirmation((gone) =>
    setResults((r) => (r ? { ...r, images: r.images.filter((image) => image.id !== gone.id) } : r)),
  );

  const generators = ableModels(models.data ?? [], 'generate');
  const model = pickModel(generators, chosen);
  const ratios = model?.aspectRatios ?? [];
  const shape: AspectRatio = ratios.includes(ratio) ? ratio : (ratios[0] ?? '1:1');
  const maxCount = Math.min(model?.maxImages ?? IMAGE_COUNT_MAX, IMAGE_COUNT_MAX);
  const howMany = Math.min(count, maxCount);
  const takesReference = Boolean(model?.abilities.includes('reference'));

  useEffect(() => {
    if (!reference) {
      setReferenceUrl(null);
      return;
    }
    const url = URL.createObjectURL(reference);
    setReferenceUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [reference]);

  // Leaving the page stops the request (the server refunds what it did not make).
  useEffect(() => () => abort.current?.abort(), []);

  const pickReference = async (file: File | undefined) => {
    const check = await checkImageFile(file, 'picked');
    setReferenceProblem(check.ok ? null : check.problem);
    setReference(check.ok ? file! : null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = prompt.trim();
    if (!text) {
      setPromptError(t('generate.promptRequired'));
      promptField.current?.focus();
      return;
    }
    if (!model || generate.isPending) return;
    setPromptError(null);
    const controller = new AbortController();
    abort.current = controller;
    setStatus(t('progress.started', { images: n(howMany) }));
    generate.mutate(
      {
        fields: { prompt: text, model: model.id, aspectRatio: shape, count: howMany },
        reference: takesReference && reference ? reference : undefined,
        signal: controller.signal,
      },
      {
        onSuccess: (answer) => {
          setResults(answer);
          setStatus(t('progress.done', { images: n(answer.images.length) }));
        },
        onError: (error) => {
          if ((error as Error)?.name === 'AbortError') setStatus(t('progress.cancelled'));
          else setStatus('');
        },
      },
    );
  };

  const cancel = () => {
    abort.current?.abort();
    generate.reset();
    setStatus(t('progress.cancelled'));
  };

  const shownAbove = useMemo(() => new Set(results?.images.map((image) => image.id)), [results]);
  const failed = generate.isError && (generate.error as Error)?.name !== 'AbortError' ? generate.error : null;

  return (
    <ImagesPage title={t('generate.title')} intro={t('generate.intro')}>
      <Card>
        <form className="space-y-5" onSubmit={submit} noValidate aria-describedby={`${id}-cost`}>
          <div className="space-y-1.5">
            <label htmlFor={`${id}-prompt`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
              {t('generate.prompt')}
            </label>
            <textarea
              ref={promptField}
              id={`${id}-prompt`}
              rows={3}
              maxLength={IMAGE_PROMPT_MAX}
              value={prompt}
              onChange={(e) => {
                setPrompt(e.target.value);
                if (promptError && e.target.value.trim()) setPromptError(null);
              }}
              onKeyDown={(e) => {
                // Ctrl/Cmd+Enter makes the images, as in the chat.
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) e.currentTarget.form?.requestSubmit();
              }}
              placeholder={t('generate.promptPlaceholder')}
              aria-invalid={promptError ? true : undefined}
              aria-describedby={promptError ? `${id}-prompt-error` : `${id}-prompt-hint`}
              className={cn(textareaClasses, promptError && 'border-red-500 focus:border-red-500')}
            />
            {promptError ? (
              <p id={`${id}-prompt-error`} role="alert" className="text-xs text-red-600 dark:text-red-400">
                {promptError}
              </p>
            ) : (
              <p id={`${id}-prompt-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
                {t('generate.promptHint', { used: n(prompt.length), max: n(IMAGE_PROMPT_MAX) })}
              </p>
            )}
          </div>

          {models.isPending ? (
            <div className="grid gap-2 sm:grid-cols-2" aria-busy="true" aria-label={t('models.loading')}>
              {[0, 1, 2, 3].map((i) => (
                <SkeletonBar key={i} className="h-14" />
              ))}
            </div>
          ) : models.isError ? (
            <ErrorNotice error={models.error} plansPath={plansPath} />
          ) : (
            <ModelPicker
              models={generators}
              value={model?.id}
              onChange={(id) => {
                setChosen(id);
                // The last request's refusal (credits, sizes) was about another model.
                if (generate.isError) generate.reset();
              }}
              apiKeysPath={apiKeysPath}
            />
          )}

          <div className="flex flex-wrap gap-x-8 gap-y-5">
            {ratios.length > 0 && (
              <fieldset>
                <legend className="mb-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">
                  {t('generate.aspectRatio')}
                </legend>
                <div className="flex flex-wrap gap-2">
                  {ratios.map((r) => (
                    <label key={r} className={segment(r === shape)}>
                      <input
                        type="radio"
                        className="absolute inset-0 cursor-pointer opacity-0"
                        name={`${id}-ratio`}
                        value={r}
                        checked={r === shape}
                        onChange={() => setRatio(r)}
                      />
                      <span aria-hidden="true">{r}</span>
                      <span className="sr-only">{t(`ratios.${r.replace(':', 'x')}`)}</span>
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
            <fieldset>
              <legend className="mb-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">
                {t('generate.count')}
              </legend>
              <div className="flex gap-2">
                {Array.from({ length: maxCount }, (_, i) => i + 1).map((value) => (
                  <label key={value} className={segment(value === howMany)}>
                    <input
                      type="radio"
                      className="absolute inset-0 cursor-pointer opacity-0"
                      name={`${id}-count`}
                      value={value}
                      checked={value === howMany}
                      onChange={() => setCount(value)}
                    />
                    {n(value)}
                  </label>
                ))}
              </div>
            </fieldset>
          </div>

          {takesReference && (
            <div className="space-y-1.5">
              <p id={`${id}-reference`} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
                {t('generate.reference')}
              </p>
              <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('generate.referenceHint')}</p>
              <div className="flex flex-wrap items-center gap-3">
                {reference && referenceUrl ? (
                  <div className="flex items-center gap-2 rounded-md border border-zinc-200 p-1.5 pr-2 dark:border-zinc-700">
                    <img src={referenceUrl} alt="" className="h-12 w-12 rounded object-cover" />
                    <span className="max-w-[12rem] truncate text-sm">{reference.name}</span>
                    <button
                      type="button"
                      onClick={() => setReference(null)}
                      className={cn('rounded p-1 text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800', focusRing)}
                      aria-label={t('generate.removeReference', { name: reference.name })}
                    >
                      <CloseIcon width="1em" height="1em" />
                    </button>
                  </div>
                ) : null}
                <Button
                  variant="secondary"
                  onClick={() => referenceInput.current?.click()}
                  aria-describedby={`${id}-reference`}
                >
                  <UploadIcon width="1.1em" height="1.1em" />
                  {reference ? t('generate.replaceReference') : t('generate.addReference')}
                </Button>
                <input
                  ref={referenceInput}
                  type="file"
                  accept={ACCEPT_IMAGES}
                  className="sr-only"
                  tabIndex={-1}
                  aria-hidden="true"
                  onChange={(e) => {
                    void pickReference(e.target.files?.[0]);
                    e.target.value = '';
                  }}
                />
              </div>
              {referenceProblem && (
                <p role="alert" className="text-xs text-red-600 dark:text-red-400">
                  {t(fileProblemKey(referenceProblem))}
                </p>
              )}
            </div>
          )}

          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={!model} loading={generate.isPending}>
              {t('generate.submit')}
            </Button>
            {model && (
              <p id={`${id}-cost`} className="text-sm text-zinc-600 dark:text-zinc-400">
                {price.total(model, howMany)}
              </p>
            )}
          </div>
        </form>
      </Card>

      {/* Announced: the start, the end, a stop (not every second of the clock). */}
      <p role="status" aria-live="polite" className="sr-only">
        {status}
      </p>

      {generate.isPending && (
        <section aria-labelledby={`${id}-progress`} className="space-y-3" aria-busy="true">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id={`${id}-progress`} className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">
              {t('progress.title', { images: n(howMany) })}
            </h2>
            <div className="flex items-center gap-3">
              <span className="text-sm tabular-nums text-zinc-600 dark:text-zinc-400">
                {t('progress.elapsed', { time: formatSeconds(elapsed) })}
              </span>
              <Button variant="secondary" onClick={cancel}>
                {t('progress.cancel')}
              </Button>
            </div>
          </div>
          <ul className={gridClasses}>
            {Array.from({ length: howMany }, (_, i) => (
              <li key={i}>
                <div
                  className="flex w-full animate-pulse items-center justify-center rounded-xl bg-zinc-200 text-xs text-zinc-500 dark:bg-zinc-800"
                  style={ratioStyle(shape)}
                >
                  {t('progress.placeholder', { index: n(i + 1), total: n(howMany) })}
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}

      {failed !== null && <ErrorNotice error={failed} plansPath={plansPath} />}

      {results && results.images.length > 0 && !generate.isPending && (
        <section aria-labelledby={`${id}-results`} className="space-y-3">
          <h2 id={`${id}-results`} className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">
            {t('results.title')}
          </h2>
          {results.missing > 0 && <Alert tone="info">{t('results.missing', { images: n(results.missing) })}</Alert>}
          <ul className={gridClasses}>
            {results.images.map((image) => (
              <ImageCard key={image.id} image={image} onDelete={ask} />
            ))}
          </ul>
        </section>
      )}

      <ImageHistory hide={shownAbove} />
      {dialog}
    </ImagesPage>
  );
}
