/**
 * The one message protocol of the extension: every runtime message between content scripts, extension pages and the
 * background worker is listed here with its payload, its answer, and who may send it. Type-only imports keep this
 * file free of zod, so content scripts stay small.
 */
import type {
  BodyOf,
  DataOf,
  EndpointName,
  FollowedProfile,
  Keyword,
  LinkedinMetric,
  LinkedinSettings,
  ParamsOf,
  QueryOf,
  Settings,
  SettingsUpdate,
} from '@parley/contract';
import type { StreamChunk } from '@parley/ui/chat-stream';
import type { SignatureItem, TemplateItem } from '../storage/templates-store';

/** Who sent a message, decided from the browser's sender record (never from the payload). See senders.ts. */
export type SenderKind =
  /** Our own pages (side panel, options, /extensionIndex.html) and the background worker. */
  | 'extension'
  /** The bridge content script in the top frame of the configured web app origin, exactly. */
  | 'web-bridge'
  /** Any other of our content scripts, on any site: only as trusted as the page it runs in. */
  | 'content-script'
  /** Anything else: another extension, a page, a frame we cannot place. Never answered. */
  | 'foreign';

/** What the extension tells about the session. Never the token: it does not leave the background and storage. */
export type SessionInfo = { signedIn: boolean; userId: string | null };

export type PanelAction = 'open' | 'close' | 'toggle';
export type PanelState = 'open' | 'closed' | 'opened-in-tab';

/** The readable text of a page, as the page reader extracted it and as it will be sent. */
export type PageContent = {
  title: string;
  url: string;
  /** Exactly what a "chat with this page" question carries (title, address and text, cut to the limit). */
  text: string;
  /** Characters of readable text before cutting. */
  originalLength: number;
  truncated: boolean;
};

/** A file going with the next chat question (a screenshot, a region, an image of a page, a PDF). */
export type AttachedFile = {
  id: string;
  kind: 'image' | 'pdf';
  name: string;
  mediaType: string;
  size: number;
  /** The bytes as a data: URL: runtime messages and ports carry JSON only. */
  dataUrl: string;
};

/** What the image context menu left for the panel: the image, or why there is none. */
export type PendingCapture = { file: AttachedFile } | { error: 'imageFailed' | 'tooLarge' | 'notImage' };

/** The person's reply templates and signatures, as the background keeps them (see features/templates/sync.ts). */
export type TemplatesData = { templates: TemplateItem[]; signatures: SignatureItem[] };

/**
 * A template chosen in the web app's picker (/template-app), on its way to the box the person was writing in. Its
 * shape is checked by `pickedTemplateOf` (template-choice.ts) wherever it arrives.
 */
export type PickedTemplate = Pick<TemplateItem, 'id' | 'kind' | 'title' | 'body' | 'language'>;

/** What the LinkedIn engagement works from: the person's watch lists and LinkedIn settings (see features/linkedin-engage). */
export type LinkedinWatch = { keywords: Keyword[]; profiles: FollowedProfile[]; settings: LinkedinSettings };
/** A number read from the person's own LinkedIn page, for their local day (YYYY-MM-DD). */
export type LinkedinReading = { metric: LinkedinMetric; value: number; day: string };

export type ApiCallInput<N extends EndpointName = EndpointName> = {
  body?: BodyOf<N>;
  query?: QueryOf<N>;
  /** The address's parts (`:id`). */
  params?: ParamsOf<N>;
};
export type ApiCallResult<N extends EndpointName = EndpointName> = { data: DataOf<N>; message: string };

export interface ProtocolMap {
  /** Spec §7. Whether the extension is signed in (and as whom). */
  GET_COOKIE: { data: undefined; response: SessionInfo };
  /** Spec §7. Stores the token handed over by the web app (null signs the extension out). */
  SET_COOKIE: { data: { token: string | null }; response: SessionInfo };
  /** Spec §7. Opens, closes or toggles the side panel. `page` names where it opens. */
  OPEN_CLOSE_POPUP: { data: { action?: PanelAction; page?: 'chat' | 'options' }; response: { state: PanelState } };
  /** Any API call, made by the background with the stored token. */
  API_CALL: { data: { name: EndpointName; input?: ApiCallInput }; response: ApiCallResult };
  GET_SETTINGS: { data: undefined; response: Settings };
  /** Changes some settings: stored at once, then pushed to /api/user/setting. */
  SET_SETTINGS: { data: SettingsUpdate; response: Settings };
  /** Pulls the server's settings now (when a settings screen opens). */
  SYNC_SETTINGS: { data: undefined; response: Settings };
  /** Ends the session on the server and here; the web app is told through the bridge. */
  LOGOUT: { data: undefined; response: SessionInfo };
  /** Extension → content script of a tab: the readable text of this page. */
  READ_PAGE: { data: undefined; response: PageContent };
  /** Background → side panel pages: close the panel of that window (the panel closes itself). */
  CLOSE_PANEL: { data: { windowId: number }; response: { closed: boolean } };
  /** Our pages → background: what the "Chat about this image" context menu does for that image of that tab. */
  CHAT_ABOUT_IMAGE: { data: { srcUrl: string; tabId: number; frameId?: number }; response: { state: PanelState } };
  /** Our pages → background: the images the context menu left for the panel (each is handed out once). */
  TAKE_CAPTURES: { data: undefined; response: PendingCapture[] };
  /** Background → our pages: an image from the context menu is waiting (take it with TAKE_CAPTURES). */
  CAPTURES_READY: { data: undefined; response: { taken: boolean } };
  /**
   * Our pages → background: what "Edit with Parley" on an image does (fetch it, upload it as the person's, open the web
   * app's editor with it in a new tab). Answers the address opened.
   */
  EDIT_IMAGE: { data: { srcUrl: string }; response: { url: string } };
  /** Our pages → background: a voice recording (a data: URL) to text, by the API (POST /api/ai/transcribe). */
  TRANSCRIBE: { data: { audio: string; name: string }; response: { text: string } };
  /** Content scripts → background: the person's templates and signatures (empty when signed out). */
  GET_TEMPLATES: { data: undefined; response: TemplatesData };
  /** Content scripts → background: fetch templates, signatures and shortcuts again if the last fetch is stale. */
  REFRESH_TEMPLATES: { data: undefined; response: { started: boolean } };
  /**
   * Content scripts → background: open the web app's template picker in a small window for the box of this frame.
   * `request` (made up by the content script) comes back with the choice, so it goes to that box only.
   */
  OPEN_TEMPLATE_PICKER: { data: { request: string }; response: { opened: boolean } };
  /**
   * The web app's bridge → background: the template chosen in a picker window. Taken only from the tab of a picker this
   * extension opened and is still waiting on; handed to the tab and frame that opened it (TEMPLATE_PICKED).
   */
  TEMPLATE_CHOSEN: { data: { template: PickedTemplate }; response: { delivered: boolean } };
  /** Background → the content script that opened the picker: the chosen template, for the box of `request`. */
  TEMPLATE_PICKED: { data: { request: string; template: PickedTemplate }; response: { used: boolean } };
  /** The web app's bridge → background: templates, signatures or shortcuts changed on the web; fetch them again. */
  TEMPLATES_CHANGED: { data: undefined; response: { started: boolean } };
  /** LinkedIn's script → background: the watch lists and LinkedIn settings (kept a few minutes; `fresh` refetches). */
  LINKEDIN_WATCH: { data: { fresh?: boolean } | undefined; response: LinkedinWatch };
  /** LinkedIn's script → background: auto-engage prepared drafts on this tab; the toolbar badge says how many. */
  LINKEDIN_DRAFTS_READY: { data: { count: number }; response: { shown: boolean } };
  /** LinkedIn's script → background: numbers read from the person's own pages; each metric is sent once a day. */
  LINKEDIN_STATS: { data: { readings: LinkedinReading[] }; response: { saved: number } };
}

export type MessageType = keyof ProtocolMap;
export type DataOfMessage<T extends MessageType> = ProtocolMap[T]['data'];
export type ResponseOf<T extends MessageType> = ProtocolMap[T]['response'];

/**
 * Who may send what. SET_COOKIE (and so the token) comes only from the web app's bridge or our own pages; a content
 * script on another site can ask for public facts and for work it needs, never for privileged actions.
 */
export const MESSAGE_POLICY: { readonly [T in MessageType]: readonly SenderKind[] } = {
  GET_COOKIE: ['extension', 'web-bridge', 'content-script'],
  SET_COOKIE: ['extension', 'web-bridge'],
  OPEN_CLOSE_POPUP: ['extension', 'web-bridge', 'content-script'],
  API_CALL: ['extension', 'content-script'],
  GET_SETTINGS: ['extension', 'web-bridge', 'content-script'],
  SET_SETTINGS: ['extension'],
  SYNC_SETTINGS: ['extension'],
  LOGOUT: ['extension'],
  READ_PAGE: ['extension'],
  CLOSE_PANEL: ['extension'],
  CHAT_ABOUT_IMAGE: ['extension'],
  TAKE_CAPTURES: ['extension'],
  CAPTURES_READY: ['extension'],
  EDIT_IMAGE: ['extension'],
  TRANSCRIBE: ['extension'],
  GET_TEMPLATES: ['extension', 'content-script'],
  REFRESH_TEMPLATES: ['extension', 'content-script'],
  OPEN_TEMPLATE_PICKER: ['content-script'],
  TEMPLATE_CHOSEN: ['web-bridge'],
  TEMPLATE_PICKED: ['extension'],
  TEMPLATES_CHANGED: ['web-bridge'],
  LINKEDIN_WATCH: ['extension', 'content-script'],
  LINKEDIN_DRAFTS_READY: ['content-script'],
  LINKEDIN_STATS: ['content-script'],
};

/**
 * Endpoints a content script may call through API_CALL: the writing and reading helpers a site feature needs. Account,
 * key and history management stay with the extension's own pages.
 */
export const CONTENT_SCRIPT_ENDPOINTS: ReadonlySet<EndpointName> = new Set<EndpointName>([
  'profile',
  'settings',
  'models',
  'editMessage',
  'message',
  'mailMessage',
  'comment',
  'chatSuggestion',
  'translate',
  'summary',
  'transcript',
  // LinkedIn engagement: drafts for the posts on the page, and the person's own changes to them (features/linkedin-engage).
  'linkedinDraft',
  'linkedinDrafts',
  'updateLinkedinDraft',
]);

/** On the wire. `parley` marks our envelopes so stray messages of other code are ignored. */
export type Envelope<T extends MessageType = MessageType> = { parley: 1; type: T; data: DataOfMessage<T> };
export type WireError = { status: number; code: string; message: string };
export type WireResponse<T extends MessageType = MessageType> =
  { ok: true; data: ResponseOf<T> } | { ok: false; error: WireError };

export function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.parley === 1 && typeof v.type === 'string' && Object.hasOwn(MESSAGE_POLICY, v.type);
}

// ---------------------------------------------------------------------------------------------------------------
// Streaming chat: a runtime Port named CHAT_PORT, opened by an extension page or a content script.

export const CHAT_PORT = 'parley-chat';

/** Client → background over the chat port. */
export type ChatPortRequest =
  /** Starts one turn: `request` is the contract's ChatRequest (the multipart `request` field of POST /api/ai/chat). */
  | { type: 'start'; id: string; request: Record<string, unknown>; files?: ChatPortFile[] }
  | { type: 'abort'; id: string };

/** A file of a chat turn: the background sends it as a `files` part of the multipart request. */
export type ChatPortFile = Pick<AttachedFile, 'name' | 'mediaType' | 'dataUrl'>;

/** Background → client over the chat port. */
export type ChatPortEvent =
  /** One chunk of the AI SDK UI message stream, as the shared parser (@parley/ui/chat-stream) read it. */
  | { type: 'chunk'; id: string; chunk: StreamChunk }
  | { type: 'done'; id: string }
  | { type: 'error'; id: string; error: WireError };
