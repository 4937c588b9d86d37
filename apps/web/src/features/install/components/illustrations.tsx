import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn, LogoMark, PuzzleIcon } from '@parley/ui';
import { EXTENSIONS_PAGE, type BrowserId } from '../browsers';

// Drawings of the browser screens each step talks about, made of HTML and a few SVG glyphs. Their words come from the
// locale files (the browser's own labels in the reader's language), so they match what the person sees. They repeat
// what the step's text says, so assistive technologies skip them.

/** What the step asks the person to click or look at. */
const target = 'ring-2 ring-blue-500 ring-offset-2 ring-offset-white dark:ring-offset-zinc-900';

const frameTint: Record<BrowserId, string> = {
  chrome: 'bg-zinc-200 dark:bg-zinc-800',
  edge: 'bg-sky-100 dark:bg-sky-950',
  brave: 'bg-stone-200 dark:bg-stone-800',
};

function Glyph({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={cn('h-3.5 w-3.5 shrink-0', className)}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

const BackGlyph = () => (
  <Glyph>
    <path d="M15 18l-6-6 6-6" />
  </Glyph>
);
const ForwardGlyph = () => (
  <Glyph>
    <path d="M9 18l6-6-6-6" />
  </Glyph>
);
const ReloadGlyph = () => (
  <Glyph>
    <path d="M20 12a8 8 0 11-2.3-5.7M20 4v5h-5" />
  </Glyph>
);
const PinGlyph = ({ className }: { className?: string }) => (
  <Glyph className={className}>
    <path d="M9 4h6l-1 6 3 3H7l3-3zM12 13v7" />
  </Glyph>
);
const EyeGlyph = ({ className }: { className?: string }) => (
  <Glyph className={className}>
    <path d="M2 12s3.5-6 10-6 10 6 10 6-3.5 6-10 6S2 12 2 12z" />
    <circle cx="12" cy="12" r="2.5" />
  </Glyph>
);
const FolderGlyph = ({ className }: { className?: string }) => (
  <Glyph className={className}>
    <path d="M3 6.5A1.5 1.5 0 014.5 5H9l2 2h8.5A1.5 1.5 0 0121 8.5v9a1.5 1.5 0 01-1.5 1.5h-15A1.5 1.5 0 013 17.5z" />
  </Glyph>
);
const FileGlyph = ({ className }: { className?: string }) => (
  <Glyph className={className}>
    <path d="M6 3h8l4 4v14H6zM14 3v4h4" />
  </Glyph>
);
const MenuGlyph = () => (
  <Glyph>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </Glyph>
);
const SearchGlyph = () => (
  <Glyph>
    <circle cx="11" cy="11" r="6" />
    <path d="M20 20l-4.5-4.5" />
  </Glyph>
);

/** A switch drawn in its "on" position. */
function Switch({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex h-4 w-7 shrink-0 items-center rounded-full bg-blue-500 p-0.5', className)}>
      <span className="ml-auto h-3 w-3 rounded-full bg-white" />
    </span>
  );
}

/** Grey lines standing for content the step does not care about. */
function Filler({ lines = 2, className }: { lines?: number; className?: string }) {
  return (
    <div className={cn('space-y-1.5', className)}>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className={cn('h-2 rounded bg-zinc-200 dark:bg-zinc-700', i % 2 ? 'w-2/3' : 'w-full')} />
      ))}
    </div>
  );
}

function Drawing({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      aria-hidden="true"
      className={cn(
        'select-none rounded-lg border border-zinc-200 bg-zinc-50 p-3 text-[11px] leading-tight text-zinc-700 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-300',
        className,
      )}
    >
      {children}
    </div>
  );
}

/** A browser window: a tab, the toolbar with its address bar, and the page. */
function BrowserWindow({
  browser,
  highlightAddress = false,
  toolbarEnd,
  children,
}: {
  browser: BrowserId;
  highlightAddress?: boolean;
  toolbarEnd?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  return (
    <div className="overflow-hidden rounded-md border border-zinc-300 bg-white shadow-sm dark:border-zinc-700 dark:bg-zinc-900">
      <div className={cn('flex items-end justify-between gap-2 px-2 pt-1.5', frameTint[browser])}>
        <span className="flex min-w-0 items-center gap-1.5 rounded-t-md bg-white px-2.5 py-1 dark:bg-zinc-900">
          <PuzzleIcon className="h-3 w-3 shrink-0" />
          <span className="truncate">{t(`install.browserUi.${browser}.extensions`)}</span>
        </span>
        <span className="pb-1 text-[10px] font-medium text-zinc-500 dark:text-zinc-400">
          {t(`install.browsers.${browser}`)}
        </span>
      </div>
      <div className="flex items-center gap-1.5 border-b border-zinc-200 px-2 py-1.5 text-zinc-400 dark:border-zinc-700">
        <BackGlyph />
        <ForwardGlyph />
        <ReloadGlyph />
        <span
          className={cn(
            'min-w-0 flex-1 truncate rounded-full bg-zinc-100 px-2.5 py-1 font-mono text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100',
            highlightAddress && target,
          )}
        >
          {EXTENSIONS_PAGE[browser]}
          {highlightAddress && <span className="ml-px inline-block h-3 w-px animate-pulse bg-zinc-800 align-middle" />}
        </span>
        {toolbarEnd ?? <PuzzleIcon className="h-3.5 w-3.5 shrink-0" />}
      </div>
      <div className="p-2.5">{children}</div>
    </div>
  );
}

/** The extensions page's top: its title, search, and the Developer mode switch (Chrome and Brave put it top right). */
function ExtensionsHeader({ browser, highlightSwitch }: { browser: BrowserId; highlightSwitch: boolean }) {
  const { t } = useTranslation('common');
  return (
    <div className="flex items-center gap-2">
      <MenuGlyph />
      <span className="font-semibold">{t(`install.browserUi.${browser}.extensions`)}</span>
      <span className="hidden flex-1 items-center gap-1 rounded-full bg-zinc-100 px-2 py-1 text-zinc-400 sm:flex dark:bg-zinc-800">
        <SearchGlyph />
      </span>
      <span className={cn('ml-auto flex items-center gap-1.5 rounded-md px-1.5 py-1', highlightSwitch && target)}>
        <span className="whitespace-nowrap">{t(`install.browserUi.${browser}.devMode`)}</span>
        <Switch />
      </span>
    </div>
  );
}

/** Edge keeps Developer mode in the left column of its extensions page. */
function EdgeSidebar({ highlightSwitch }: { highlightSwitch: boolean }) {
  const { t } = useTranslation('common');
  return (
    <div className="w-2/5 shrink-0 space-y-2 border-r border-zinc-200 pr-2 dark:border-zinc-700">
      <p className="font-semibold">{t('install.browserUi.edge.extensions')}</p>
      <Filler lines={3} />
      <div className={cn('flex items-center justify-between gap-1 rounded-md px-1 py-1', highlightSwitch && target)}>
        <span className="min-w-0">{t('install.browserUi.edge.devMode')}</span>
        <Switch />
      </div>
    </div>
  );
}

/** The three buttons Developer mode reveals, "Load unpacked" first. */
function DeveloperButtons({ browser, highlight }: { browser: BrowserId; highlight: boolean }) {
  const { t } = useTranslation('common');
  const button = 'rounded border border-zinc-300 px-2 py-1 dark:border-zinc-600';
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <span className={cn(button, 'font-medium text-blue-700 dark:text-blue-300', highlight && target)}>
        {t(`install.browserUi.${browser}.loadUnpacked`)}
      </span>
      <span className={cn(button, 'text-zinc-500')}>{t(`install.browserUi.${browser}.pack`)}</span>
      <span className={cn(button, 'text-zinc-500')}>{t(`install.browserUi.${browser}.update`)}</span>
    </div>
  );
}

/** Step 1: the downloaded zip becomes a folder with manifest.json at its top. */
export function UnzipDrawing({ fileName }: { fileName: string }) {
  const folder = fileName.replace(/\.zip$/i, '');
  return (
    <Drawing className="flex flex-col items-center gap-1.5">
      <div className="flex max-w-full items-center gap-2 rounded-md bg-white px-3 py-2 shadow-sm dark:bg-zinc-900">
        <svg viewBox="0 0 32 40" className="h-7 w-6 shrink-0" aria-hidden="true" focusable="false">
          <path d="M2 2h20l8 8v28H2z" className="fill-zinc-100 stroke-zinc-400 dark:fill-zinc-800" strokeWidth="1.5" />
          <path d="M22 2v8h8" className="fill-none stroke-zinc-400" strokeWidth="1.5" />
          <path d="M14 6h4M14 10h4M14 14h4M14 18h4" className="stroke-zinc-500" strokeWidth="2" />
          <rect x="12.5" y="21" width="7" height="7" rx="1" className="fill-zinc-500" />
        </svg>
        <span className="min-w-0 truncate font-mono">{fileName}</span>
      </div>
      <svg viewBox="0 0 16 24" className="h-5 w-4 text-blue-500" aria-hidden="true" focusable="false">
        <path d="M8 2v18M3 15l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <div className="min-w-0 max-w-full rounded-md bg-white px-3 py-2 shadow-sm dark:bg-zinc-900">
        <p className="flex items-center gap-1.5 font-medium">
          <FolderGlyph className="h-4 w-4 text-amber-500" />
          <span className="truncate font-mono">{folder}</span>
        </p>
        <ul className="mt-1.5 space-y-1 border-l border-zinc-200 pl-3 font-mono dark:border-zinc-700">
          <li className={cn('flex items-center gap-1.5 rounded px-1', target)}>
            <FileGlyph className="text-blue-500" />
            manifest.json
          </li>
          <li className="flex items-center gap-1.5 px-1 text-zinc-500">
            <FileGlyph />
            background.js
          </li>
          <li className="flex items-center gap-1.5 px-1 text-zinc-500">
            <FolderGlyph className="text-amber-500" />
            assets
          </li>
        </ul>
      </div>
    </Drawing>
  );
}

/** Step 2: the extensions page's address typed into the address bar. */
export function AddressBarDrawing({ browser }: { browser: BrowserId }) {
  return (
    <Drawing>
      <BrowserWindow browser={browser} highlightAddress>
        <Filler lines={3} />
      </BrowserWindow>
    </Drawing>
  );
}

/** Step 3: the Developer mode switch, where this browser puts it. */
export function DeveloperModeDrawing({ browser }: { browser: BrowserId }) {
  return (
    <Drawing>
      <BrowserWindow browser={browser}>
        {browser === 'edge' ? (
          <div className="flex gap-2.5">
            <EdgeSidebar highlightSwitch />
            <Filler lines={4} className="flex-1" />
          </div>
        ) : (
          <div className="space-y-2.5">
            <ExtensionsHeader browser={browser} highlightSwitch />
            <Filler lines={2} />
          </div>
        )}
      </BrowserWindow>
    </Drawing>
  );
}

/** Step 4: "Load unpacked", then the folder chosen in the file picker. */
export function LoadUnpackedDrawing({ browser, fileName }: { browser: BrowserId; fileName: string }) {
  const { t } = useTranslation('common');
  const folder = fileName.replace(/\.zip$/i, '');
  const picker = (
    <div className="mt-2.5 rounded-md border border-zinc-300 bg-zinc-50 p-2 shadow-md dark:border-zinc-600 dark:bg-zinc-800">
      <p className="flex items-center gap-1.5 rounded bg-blue-100 px-1.5 py-1 dark:bg-blue-950">
        <FolderGlyph className="h-4 w-4 text-amber-500" />
        <span className="truncate font-mono">{folder}</span>
      </p>
      <p className="mt-2 flex justify-end">
        <span className="rounded bg-blue-500 px-2 py-0.5 text-white">{t(`install.browserUi.${browser}.select`)}</span>
      </p>
    </div>
  );
  return (
    <Drawing>
      <BrowserWindow browser={browser}>
        {browser === 'edge' ? (
          <div className="flex gap-2.5">
            <EdgeSidebar highlightSwitch={false} />
            <div className="min-w-0 flex-1">
              <DeveloperButtons browser={browser} highlight />
              {picker}
            </div>
          </div>
        ) : (
          <div className="space-y-2.5">
            <ExtensionsHeader browser={browser} highlightSwitch={false} />
            <DeveloperButtons browser={browser} highlight />
            {picker}
          </div>
        )}
      </BrowserWindow>
    </Drawing>
  );
}

/** Step 5: the toolbar's extensions menu, with Parley pinned. */
export function PinDrawing({ browser }: { browser: BrowserId }) {
  const { t } = useTranslation('common');
  const Pin = browser === 'edge' ? EyeGlyph : PinGlyph;
  return (
    <Drawing>
      <BrowserWindow
        browser={browser}
        toolbarEnd={
          <span className={cn('rounded p-0.5 text-zinc-600 dark:text-zinc-300', target)}>
            <PuzzleIcon className="h-3.5 w-3.5" />
          </span>
        }
      >
        <div className="ml-auto w-full max-w-56 rounded-md border border-zinc-200 bg-white p-2 shadow-md dark:border-zinc-700 dark:bg-zinc-900">
          <p className="mb-1.5 font-semibold">{t(`install.browserUi.${browser}.extensions`)}</p>
          <div className="flex items-center gap-2 rounded px-1 py-1">
            <LogoMark className="inline-flex h-5 w-5 shrink-0 items-center justify-center rounded bg-blue-500 text-[10px] text-white" />
            <span className="flex-1 font-medium">Parley</span>
            <span
              className={cn('flex items-center gap-1 rounded px-1 py-0.5 text-blue-600 dark:text-blue-300', target)}
            >
              <Pin />
            </span>
          </div>
          <p className="mt-1 text-right text-[10px] text-zinc-500">{t(`install.browserUi.${browser}.pin`)}</p>
        </div>
      </BrowserWindow>
    </Drawing>
  );
}
