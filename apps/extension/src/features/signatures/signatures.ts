import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import type { TemplatesData } from '../../platform/messaging/protocol';
import type { SignatureItem } from '../../platform/storage/templates-store';
import type { MailEditorSite, ReplySite } from '../../sites/shared/types';
import { watchPage } from '../../ui/on-site/observe';
import { buildSafeFragment } from './safe-html';

/** Marks the signature Parley put into an editor (the sites' `keep` selectors keep it when a reply is inserted). */
export const SIGNATURE_ATTRIBUTE = 'data-parley-signature';

/** The signature that is the default for this account's address, else for the site (gmail, outlook); else none. */
export function pickSignature(signatures: SignatureItem[], site: string, address: string | null): SignatureItem | null {
  const scoped = (scope: string) => signatures.find((s) => s.defaultFor.some((d) => d.toLowerCase() === scope));
  return (address ? scoped(address.toLowerCase()) : undefined) ?? scoped(site) ?? null;
}

const words = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * Puts `signature` into a mail editor once: before `slot` (the quoted original) or at the end, built from the allowlist
 * (safe-html.ts), then tells the site with an `input` event (Gmail and Outlook save drafts from input). Nothing is done
 * when the editor already holds a Parley signature, or already shows this signature's text (a draft reopened, whose
 * markup the site may have rewritten). Returns whether it was added.
 */
export function appendSignature(editor: HTMLElement, signature: SignatureItem, slot: ChildNode | null): boolean {
  if (editor.querySelector(`[${SIGNATURE_ATTRIBUTE}]`)) return false;
  const doc = editor.ownerDocument;
  const content = buildSafeFragment(signature.html, doc);
  const text = words(content.textContent);
  if (!content.hasChildNodes() || (text && words(editor.textContent).includes(text))) return false;
  const wrapper = doc.createElement('div');
  wrapper.setAttribute(SIGNATURE_ATTRIBUTE, '');
  // A blank line between what the person writes and the signature.
  const blank = doc.createElement('div');
  blank.append(doc.createElement('br'));
  wrapper.append(blank, content);
  editor.insertBefore(wrapper, slot && slot.parentNode === editor ? slot : null);
  editor.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
  return true;
}

/**
 * Gmail and Outlook: the person's default signature for the site (or for the account writing, when the page shows its
 * address) goes into every reply and compose box once. An editor that had it is never given it again, even when the
 * person deleted it; a box that is closed and reopened holds it already (its mark, or its text). The signatures are
 * asked for when the first box appears, not with the page; with no signature for this site, the watching stops.
 */
export function startSignatures(
  ctx: ContentScriptContext,
  options: { site: ReplySite & MailEditorSite; load: () => Promise<TemplatesData> },
): () => void {
  const { site } = options;
  const seen = new WeakSet<HTMLElement>();
  let signatures: Promise<SignatureItem[]> | null = null;
  let stopped = false;
  let stopWatching: () => void = () => undefined;
  const stop = () => {
    stopped = true;
    stopWatching();
  };

  const scan = () => {
    if (!site.match(new URL(location.href))) return;
    const editors = site.findReplyTargets(document).filter(({ editor }) => !seen.has(editor));
    if (!editors.length) return;
    signatures ??= options.load().then(
      (data) => data.signatures,
      () => [],
    );
    void signatures.then((list) => {
      if (stopped || !ctx.isValid) return;
      const signature = pickSignature(list, site.id, site.accountAddress(document));
      if (!signature) {
        stop();
        return;
      }
      for (const { editor } of editors) {
        if (seen.has(editor) || !editor.isConnected) continue;
        seen.add(editor);
        appendSignature(editor, signature, site.signatureSlot(editor));
      }
    });
  };
  stopWatching = watchPage(ctx, scan);
  return stop;
}
