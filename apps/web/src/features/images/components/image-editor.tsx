import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { ImageAbility, ImageOperation, ImageVersion } from '@parley/contract';
import { IMAGE_OPERATIONS, IMAGE_PROMPT_MAX, OPERATION_ABILITY } from '@parley/contract/values';
import { formatNumber } from '@parley/i18n';
import { Alert, Button, Card, SkeletonBar, Spinner, cn, focusRing } from '@parley/ui';
import { ApiError, errorMessage } from '../../../lib/api';
import { fetchVersionBytes, useEditImage, useImage, useImageModels, useUploadImage } from '../api/images-api';
import { asPng, downloadName, saveBlob } from '../lib/download';
import { fileProblemKey, type ImageFileProblem } from '../lib/file-checks';
import { exportMask, type Stroke } from '../lib/mask';
import {
  canRedo,
  canUndo,
  currentVersion,
  parentOf,
  redo,
  select,
  undo,
  versionNumber,
  type VersionPointer,
} from '../lib/versions';
import { IMAGE_PATHS } from '../paths';
import { CompareSlider } from './compare-slider';
import { BrushIcon, CompareIcon, DownloadIcon, RedoIcon, UndoIcon } from './icons';
import { MaskCanvas } from './mask-canvas';
import { ableModels, ModelSelect, pickModel } from './model-picker';
import {
  ErrorNotice,
  iconButton,
  ImagesPage,
  textareaClasses,
  useElapsed,
  useFormatSeconds,
  usePrice,
  VersionImage,
} from './parts';
import { DropArea, PickImageButton, UploadZone } from './upload-zone';
import { operationKey, VersionList } from './version-list';

type Props = {
  imageId: string | undefined;
  /** Why the extension's "Edit with Parley" opened the editor without the image (`?problem=`), when it did. */
  problem?: string | null;
  plansPath: string;
  apiKeysPath: string;
};

/** The extension's reasons, each with its words (anything else in the address is ignored). */
const OPENED_PROBLEMS = {
  signedOut: 'opened.signedOut',
  fetchFailed: 'opened.fetchFailed',
  uploadFailed: 'opened.uploadFailed',
  notImage: 'files.notImage',
  formatUnsupported: 'files.formatUnsupported',
  tooLarge: 'files.tooLarge',
} as const;

export function openedProblemKey(problem: string | null | undefined) {
  return problem && Object.hasOwn(OPENED_PROBLEMS, problem)
    ? OPENED_PROBLEMS[problem as keyof typeof OPENED_PROBLEMS]
    : null;
}
type BackgroundMode = 'colour' | 'image' | 'scene';

const BACKGROUND_MODES: BackgroundMode[] = ['colour', 'image', 'scene'];

/** The ability the chosen operation needs: a colour or picture behind the subject is a background removal first. */
export function abilityFor(operation: ImageOperation, background: BackgroundMode): ImageAbility {
  if (operation === 'changeBackground' && background !== 'scene') return 'removeBackground';
  return OPERATION_ABILITY[operation];
}

/** The stage keeps the image's own shape, no taller than most of the screen and no larger than the image itself. */
const stageStyle = (version: Pick<ImageVersion, 'width' | 'height'>) => ({
  aspectRatio: `${version.width} / ${version.height}`,
  maxWidth: `min(100%, ${version.width}px, calc(65dvh * ${version.width} / ${version.height}))`,
});

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) &&
  !(target instanceof HTMLInputElement && ['range', 'radio', 'checkbox', 'color'].includes(target.type));

const tab = (active: boolean) =>
  cn(
    'relative flex cursor-pointer items-center justify-center rounded-md px-2.5 py-2 text-center text-sm font-medium',
    'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-500',
    active
      ? 'bg-white text-zinc-900 shadow-xs dark:bg-zinc-700 dark:text-zinc-50'
      : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
  );

/**
 * /image-editor (spec §1, §2): open an image (one of the person's, an upload or a drop: PNG or JPEG only, spec §5),
 * then remove its background, change it (a colour, a picture, a described scene), remove its text, or re-edit it with
 * an instruction (on a brushed area where the model can). Each edit is a new version: undo and redo move between a
 * version and the one it was made from, the list shows them all (any can be chosen and edited again), before/after
 * compares the current one with its parent, and the current one downloads as PNG.
 */
export function ImageEditor({ imageId, problem, plansPath, apiKeysPath }: Props) {
  const { t, i18n } = useTranslation('images');
  const id = useId();
  const navigate = useNavigate();
  const image = useImage(imageId);
  const models = useImageModels();
  const edit = useEditImage();
  const upload = useUploadImage();
  const price = usePrice();
  const formatSeconds = useFormatSeconds();
  const elapsed = useElapsed(edit.isPending);
  const n = (value: number) => formatNumber(value, i18n.language);

  const [pointer, setPointer] = useState<VersionPointer>({ current: null, redo: [] });
  const [operation, setOperation] = useState<ImageOperation>('removeBackground');
  const [background, setBackground] = useState<BackgroundMode>('colour');
  const [colour, setColour] = useState('#ffffff');
  const [backgroundFile, setBackgroundFile] = useState<File | null>(null);
  const [backgroundProblem, setBackgroundProblem] = useState<ImageFileProblem | null>(null);
  const [scene, setScene] = useState('');
  const [instruction, setInstruction] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [chosenModels, setChosenModels] = useState<Partial<Record<string, string>>>({});
  const [brushOn, setBrushOn] = useState(false);
  const [brushSize, setBrushSize] = useState(20);
  const [strokes, setStrokes] = useState<Stroke[]>([]);
  const [comparing, setComparing] = useState(false);
  const [fileProblem, setFileProblem] = useState<ImageFileProblem | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [downloading, setDownloading] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const textField = useRef<HTMLTextAreaElement>(null);

  const versions = useMemo(() => image.data?.versions ?? [], [image.data]);
  const current = currentVersion(versions, pointer);
  const parent = parentOf(versions, current);
  const ability = abilityFor(operation, background);
  const modelKey = `${operation}:${ability}`;
  const able = ableModels(models.data ?? [], ability);
  const model = pickModel(able, chosenModels[modelKey]);
  const masks = operation === 'reEdit' && Boolean(model?.abilities.includes('mask'));
  const painting = masks && brushOn && !comparing;
  const describe = (version: ImageVersion) =>
    t('versions.label', { number: n(versionNumber(versions, version.id)), made: t(operationKey(version.operation)) });

  // Leaving the page stops a running edit.
  useEffect(() => () => abort.current?.abort(), []);

  // The mask belongs to the version it was painted on.
  useEffect(() => setStrokes([]), [current?.id]);

  const move = useCallback(
    (next: VersionPointer) => {
      if (edit.isPending || next === pointer) return;
      setPointer(next);
      const shown = currentVersion(versions, next);
      if (shown) setAnnouncement(t('versions.showing', { version: describe(shown), total: n(versions.length) }));
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- describe and n only read the language and versions
    [edit.isPending, pointer, versions, t],
  );

  // Ctrl/Cmd+Z and Ctrl/Cmd+Shift+Z (or Ctrl+Y), except while typing.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || isTyping(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) {
        event.preventDefault();
        move(undo(versions, pointer));
      } else if ((key === 'z' && event.shiftKey) || key === 'y') {
        event.preventDefault();
        move(redo(versions, pointer));
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [move, versions, pointer]);

  const open = (file: File) => {
    setFileProblem(null);
    upload.mutate(file, {
      onSuccess: ({ image: opened }) => navigate(IMAGE_PATHS.edit(opened.id)),
    });
  };
  const refuse = (problem: ImageFileProblem) => {
    upload.reset();
    setFileProblem(problem);
  };

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    if (!image.data || !current || !model || edit.isPending) return;
    const fields: Parameters<typeof edit.mutate>[0]['fields'] = {
      operation,
      imageId: image.data.id,
      versionId: current.id,
      model: model.id,
    };
    const files: { background?: Blob; mask?: Blob } = {};
    if (operation === 'changeBackground') {
      if (background === 'colour') fields.colour = colour;
      else if (background === 'image') {
        if (!backgroundFile) {
          setFieldError(t('edit.backgroundImageRequired'));
          return;
        }
        files.background = backgroundFile;
      } else {
        if (!scene.trim()) {
          setFieldError(t('edit.sceneRequired'));
          textField.current?.focus();
          return;
        }
        fields.prompt = scene.trim();
      }
    }
    if (operation === 'reEdit') {
      if (!instruction.trim()) {
        setFieldError(t('edit.instructionRequired'));
        textField.current?.focus();
        return;
      }
      fields.prompt = instruction.trim();
      if (masks) {
        const mask = await exportMask(strokes, { width: current.width, height: current.height });
        if (mask) files.mask = mask;
      }
    }
    setFieldError(null);
    const controller = new AbortController();
    abort.current = controller;
    setAnnouncement(t('progress.editing', { operation: t(`operations.${operation}.label`) }));
    edit.mutate(
      { fields, files, signal: controller.signal },
      {
        onSuccess: ({ image: edited, version }) => {
          setPointer(select(version.id));
          setStrokes([]);
          setBrushOn(false);
          setAnnouncement(
            t('progress.edited', {
              version: t('versions.label', {
                number: n(versionNumber(edited.versions, version.id)),
                made: t(operationKey(version.operation)),
              }),
            }),
          );
        },
        onError: (error) => {
          setAnnouncement((error as Error)?.name === 'AbortError' ? t('progress.cancelled') : '');
        },
      },
    );
  };

  const cancel = () => {
    abort.current?.abort();
    edit.reset();
    setAnnouncement(t('progress.cancelled'));
  };

  const downloadPng = async () => {
    if (!image.data || !current) return;
    setDownloading(true);
    try {
      const png = await asPng(await fetchVersionBytes(current.id));
      saveBlob(png, downloadName(image.data, current, 'image/png'));
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setDownloading(false);
    }
  };

  const failed = edit.isError && (edit.error as Error)?.name !== 'AbortError' ? edit.error : null;
  const problems = (
    <>
      {fileProblem && <Alert tone="error">{t(fileProblemKey(fileProblem))}</Alert>}
      {upload.isError && <ErrorNotice error={upload.error} plansPath={plansPath} />}
    </>
  );

  // Nothing open yet, or the image is gone (deleted, or someone else's): drop or choose one.
  if (!imageId || image.isError) {
    return (
      <ImagesPage title={t('edit.title')} intro={t('edit.intro')}>
        {!imageId && openedProblemKey(problem) && (
          <Alert tone="error">
            <p className="font-medium">{t('opened.title')}</p>
            <p>{t(openedProblemKey(problem)!)}</p>
          </Alert>
        )}
        {image.isError && (
          <Alert tone="error">
            {image.error instanceof ApiError && image.error.status === 404
              ? t('edit.notFound')
              : errorMessage(image.error)}
          </Alert>
        )}
        <UploadZone onFile={open} onProblem={refuse} busy={upload.isPending} />
        {problems}
      </ImagesPage>
    );
  }

  if (image.isPending || !current || !image.data) {
    return (
      <ImagesPage title={t('edit.title')}>
        <div aria-busy="true" aria-label={t('edit.loading')} className="grid gap-5 lg:grid-cols-[1fr_22rem]">
          <SkeletonBar className="aspect-square w-full rounded-xl" />
          <SkeletonBar className="h-72 w-full rounded-xl" />
        </div>
      </ImagesPage>
    );
  }

  const textValue = operation === 'reEdit' ? instruction : scene;
  const needsText = operation === 'reEdit' || (operation === 'changeBackground' && background === 'scene');

  return (
    <ImagesPage title={t('edit.title')}>
      <DropArea onFile={open} onProblem={refuse} disabled={upload.isPending || edit.isPending}>
        <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <div className="min-w-0 space-y-3">
            <div className="flex flex-wrap items-center gap-1" role="toolbar" aria-label={t('edit.toolbar')}>
              <button
                type="button"
                className={iconButton}
                onClick={() => move(undo(versions, pointer))}
                disabled={!canUndo(versions, pointer) || edit.isPending}
                title={t('edit.undoHint')}
                aria-keyshortcuts="Control+Z"
              >
                <UndoIcon />
                <span className="sr-only">{t('edit.undo')}</span>
              </button>
              <button
                type="button"
                className={iconButton}
                onClick={() => move(redo(versions, pointer))}
                disabled={!canRedo(versions, pointer) || edit.isPending}
                title={t('edit.redoHint')}
                aria-keyshortcuts="Control+Shift+Z Control+Y"
              >
                <RedoIcon />
                <span className="sr-only">{t('edit.redo')}</span>
              </button>
              <button
                type="button"
                className={cn(
                  iconButton,
                  comparing && 'bg-blue-50 text-blue-700 dark:bg-blue-500/15 dark:text-blue-300',
                )}
                onClick={() => setComparing((c) => !c)}
                disabled={!parent}
                aria-pressed={comparing && Boolean(parent)}
                title={parent ? t('edit.compare') : t('edit.compareNone')}
              >
                <CompareIcon />
                <span className="sr-only">{t('edit.compare')}</span>
              </button>
              <span className="mx-1 hidden h-6 w-px bg-zinc-200 sm:block dark:bg-zinc-700" aria-hidden="true" />
              <Button variant="secondary" onClick={() => void downloadPng()} loading={downloading}>
                {!downloading && <DownloadIcon width="1.1em" height="1.1em" />}
                {t('edit.download')}
              </Button>
              <div className="ml-auto">
                <PickImageButton
                  onFile={open}
                  onProblem={refuse}
                  label={t('edit.openAnother')}
                  loading={upload.isPending}
                  disabled={edit.isPending}
                />
              </div>
            </div>
            {problems}

            <figure className="space-y-2">
              {comparing && parent ? (
                <CompareSlider
                  beforeId={parent.id}
                  afterId={current.id}
                  beforeAlt={describe(parent)}
                  afterAlt={describe(current)}
                  stageStyle={stageStyle(current)}
                />
              ) : (
                <div className="relative mx-auto w-full overflow-hidden rounded-lg" style={stageStyle(current)}>
                  <VersionImage versionId={current.id} alt={describe(current)} fill />
                  {painting && (
                    <MaskCanvas
                      width={current.width}
                      height={current.height}
                      strokes={strokes}
                      onStrokes={setStrokes}
                      screenRadius={brushSize}
                      label={t('mask.canvas')}
                    />
                  )}
                  {edit.isPending && (
                    <div className="absolute inset-0 flex items-center justify-center bg-white/60 dark:bg-zinc-950/60">
                      <Spinner className="h-8 w-8 text-blue-600" />
                    </div>
                  )}
                </div>
              )}
              <figcaption className="text-center text-xs text-zinc-600 dark:text-zinc-400">
                {describe(current)} · {n(current.width)} × {n(current.height)}
                {current.prompt ? ` · “${current.prompt}”` : ''}
              </figcaption>
            </figure>

            <VersionList
              versions={versions}
              currentId={current.id}
              onSelect={(versionId) => move(select(versionId))}
              disabled={edit.isPending}
            />
          </div>

          <Card className="h-fit space-y-4">
            <form className="space-y-4" onSubmit={(e) => void apply(e)} noValidate>
              <fieldset>
                <legend className="mb-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">
                  {t('edit.operation')}
                </legend>
                <div className="grid grid-cols-2 gap-1 rounded-lg bg-zinc-100 p-1 dark:bg-zinc-800">
                  {IMAGE_OPERATIONS.map((op) => (
                    <label key={op} className={tab(op === operation)}>
                      <input
                        type="radio"
                        className="absolute inset-0 cursor-pointer opacity-0"
                        name={`${id}-operation`}
                        value={op}
                        checked={op === operation}
                        onChange={() => {
                          setOperation(op);
                          setFieldError(null);
                          if (edit.isError) edit.reset();
                        }}
                      />
                      {t(`operations.${op}.label`)}
                    </label>
                  ))}
                </div>
                <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">{t(`operations.${operation}.hint`)}</p>
              </fieldset>

              {operation === 'changeBackground' && (
                <fieldset className="space-y-3">
                  <legend className="mb-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">
                    {t('edit.background')}
                  </legend>
                  <div className="flex flex-wrap gap-x-4 gap-y-2">
                    {BACKGROUND_MODES.map((mode) => (
                      <label key={mode} className="flex items-center gap-2 text-sm">
                        <input
                          type="radio"
                          name={`${id}-background`}
                          value={mode}
                          checked={mode === background}
                          onChange={() => {
                            setBackground(mode);
                            setFieldError(null);
                          }}
                          className="h-4 w-4 accent-blue-600"
                        />
                        {t(`edit.backgrounds.${mode}`)}
                      </label>
                    ))}
                  </div>
                  {background === 'colour' && (
                    <div className="flex items-center gap-3">
                      <input
                        id={`${id}-colour`}
                        type="color"
                        value={colour}
                        onChange={(e) => setColour(e.target.value)}
                        className={cn('h-10 w-14 cursor-pointer rounded-md border border-zinc-300', focusRing)}
                      />
                      <label htmlFor={`${id}-colour`} className="text-sm">
                        {t('edit.colour')} <span className="font-mono text-zinc-600">{colour.toUpperCase()}</span>
                      </label>
                    </div>
                  )}
                  {background === 'image' && (
                    <div className="space-y-1.5">
                      <div className="flex flex-wrap items-center gap-2">
                        <PickImageButton
                          onFile={(file) => {
                            setBackgroundProblem(null);
                            setBackgroundFile(file);
                            setFieldError(null);
                          }}
                          onProblem={(problem) => {
                            setBackgroundFile(null);
                            setBackgroundProblem(problem);
                          }}
                          label={backgroundFile ? t('edit.replaceBackgroundImage') : t('edit.chooseBackgroundImage')}
                        />
                        {backgroundFile && (
                          <span className="max-w-[12rem] truncate text-sm text-zinc-700 dark:text-zinc-300">
                            {backgroundFile.name}
                          </span>
                        )}
                      </div>
                      {backgroundProblem && (
                        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
                          {t(fileProblemKey(backgroundProblem))}
                        </p>
                      )}
                    </div>
                  )}
                </fieldset>
              )}

              {needsText && (
                <div className="space-y-1.5">
                  <label htmlFor={`${id}-text`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
                    {operation === 'reEdit' ? t('edit.instruction') : t('edit.scene')}
                  </label>
                  <textarea
                    ref={textField}
                    id={`${id}-text`}
                    rows={3}
                    maxLength={IMAGE_PROMPT_MAX}
                    value={textValue}
                    onChange={(e) => {
                      if (operation === 'reEdit') setInstruction(e.target.value);
                      else setScene(e.target.value);
                      if (e.target.value.trim()) setFieldError(null);
                    }}
                    placeholder={operation === 'reEdit' ? t('edit.instructionPlaceholder') : t('edit.scenePlaceholder')}
                    aria-invalid={fieldError ? true : undefined}
                    aria-describedby={fieldError ? `${id}-field-error` : undefined}
                    className={textareaClasses}
                  />
                </div>
              )}
              {fieldError && (
                <p id={`${id}-field-error`} role="alert" className="text-xs text-red-600 dark:text-red-400">
                  {fieldError}
                </p>
              )}

              {models.isPending ? (
                <SkeletonBar className="h-16" />
              ) : models.isError ? (
                <ErrorNotice error={models.error} plansPath={plansPath} />
              ) : (
                <ModelSelect
                  models={able}
                  value={model?.id}
                  onChange={(modelId) => {
                    setChosenModels((all) => ({ ...all, [modelKey]: modelId }));
                    // The last edit's refusal (credits, what the model can do) was about another model.
                    if (edit.isError) edit.reset();
                  }}
                  apiKeysPath={apiKeysPath}
                />
              )}

              {operation === 'reEdit' && model && (
                <div className="space-y-2 rounded-lg border border-zinc-200 p-3 dark:border-zinc-700">
                  {masks ? (
                    <>
                      <div className="flex flex-wrap items-center gap-2">
                        <Button
                          variant="secondary"
                          aria-pressed={brushOn}
                          onClick={() => {
                            setBrushOn((on) => !on);
                            setComparing(false);
                          }}
                          className={cn(brushOn && 'border-blue-500 text-blue-700 dark:text-blue-300')}
                        >
                          <BrushIcon width="1.1em" height="1.1em" />
                          {t('mask.brush')}
                        </Button>
                        <Button variant="ghost" onClick={() => setStrokes([])} disabled={strokes.length === 0}>
                          {t('mask.clear')}
                        </Button>
                      </div>
                      {brushOn && (
                        <div className="flex items-center gap-3">
                          <label htmlFor={`${id}-brush`} className="text-sm">
                            {t('mask.size')}
                          </label>
                          <input
                            id={`${id}-brush`}
                            type="range"
                            min={4}
                            max={60}
                            value={brushSize}
                            onChange={(e) => setBrushSize(Number(e.target.value))}
                            className="flex-1 accent-blue-600"
                          />
                        </div>
                      )}
                      <p className="text-xs text-zinc-600 dark:text-zinc-400" aria-live="polite">
                        {strokes.length > 0 ? t('mask.painted') : t('mask.hint')}
                      </p>
                    </>
                  ) : (
                    <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('mask.notThisModel')}</p>
                  )}
                </div>
              )}

              <div className="space-y-2">
                <div className="flex flex-wrap items-center gap-3">
                  <Button type="submit" disabled={!model} loading={edit.isPending}>
                    {t(`operations.${operation}.apply`)}
                  </Button>
                  {edit.isPending ? (
                    <>
                      <span className="text-sm tabular-nums text-zinc-600 dark:text-zinc-400">
                        {t('progress.elapsed', { time: formatSeconds(elapsed) })}
                      </span>
                      <Button variant="secondary" onClick={cancel}>
                        {t('progress.cancel')}
                      </Button>
                    </>
                  ) : (
                    model && <span className="text-sm text-zinc-600 dark:text-zinc-400">{price.total(model)}</span>
                  )}
                </div>
                <p className="text-xs text-zinc-500 dark:text-zinc-400">
                  {t('edit.fromVersion', { version: describe(current) })}
                </p>
              </div>
              {failed !== null && <ErrorNotice error={failed} plansPath={plansPath} />}
            </form>
          </Card>
        </div>
      </DropArea>
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </ImagesPage>
  );
}
