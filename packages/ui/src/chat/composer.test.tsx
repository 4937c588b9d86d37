import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '@parley/i18n';
import chatEn from '@parley/i18n/locales/en/chat.json';
import { CHAT_TEXT_MAX } from '@parley/contract/values';
import { Composer } from './composer.js';
import { ACCEPT, checkFiles, MAX_FILES } from './file-checks.js';
import { ChatServicesProvider, type ChatServices } from './services.js';

const i18n = createI18n({
  language: 'en',
  resources: { en: { chat: chatEn } },
  namespaces: ['chat'],
  defaultNS: 'chat',
});

const png = (name = 'shot.png', size = 68) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const pdf = (name = 'doc.pdf') => new File(['%PDF-1.4'], name, { type: 'application/pdf' });
const text = (name = 'notes.txt') => new File(['hello'], name, { type: 'text/plain' });

describe('checkFiles', () => {
  it('accepts images and PDFs, by type or by extension when the type is unknown', () => {
    const { accepted, problem } = checkFiles([png(), pdf(), new File(['x'], 'scan.PDF'), new File(['x'], 'a.jpeg')]);
    expect(accepted).toHaveLength(4);
    expect(problem).toBeNull();
  });

  it('refuses other types, empty files, oversized files and more than the limit', () => {
    expect(checkFiles([text()]).problem).toEqual({ key: 'unsupported' });
    expect(checkFiles([new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' })]).problem).toEqual({
      key: 'unsupported',
    });
    expect(checkFiles([new File([], 'empty.png', { type: 'image/png' })]).problem).toEqual({ key: 'invalid' });
    const huge = { name: 'huge.png', type: 'image/png', size: 11 * 1024 * 1024 } as File;
    expect(checkFiles([huge]).problem).toEqual({ key: 'tooLarge', limit: 10 });
    const many = checkFiles([png('1.png'), png('2.png')], { existing: MAX_FILES - 1 });
    expect(many.accepted).toHaveLength(1);
    expect(many.problem).toEqual({ key: 'tooMany', limit: MAX_FILES });
  });

  it('wants an image where only an image makes sense', () => {
    expect(checkFiles([pdf()], { imagesOnly: true }).problem).toEqual({ key: 'notImage' });
    expect(checkFiles([png()], { imagesOnly: true }).accepted).toHaveLength(1);
  });
});

describe('Composer', () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:preview');
    URL.revokeObjectURL = vi.fn();
  });

  const setup = (props: Partial<Parameters<typeof Composer>[0]> = {}, more: Partial<ChatServices> = {}) => {
    const onSend = vi.fn();
    const onStop = vi.fn();
    const services: ChatServices = {
      transcribe: vi.fn(async () => 'hello from the server'),
      translate: vi.fn(async () => 'bonjour'),
      errorText: () => null,
      ...more,
    };
    // `applyAccept: false`: the file dialog's filter can be switched off, so the check must not rely on it.
    const user = userEvent.setup({ applyAccept: false });
    const ui = (shown: typeof props) => (
      <I18nextProvider i18n={i18n}>
        <ChatServicesProvider value={services}>
          <Composer streaming={false} onSend={onSend} onStop={onStop} {...shown} />
        </ChatServicesProvider>
      </I18nextProvider>
    );
    const view = render(ui(props));
    const fileInput = view.container.querySelector<HTMLInputElement>('input[type="file"]')!;
    /** Renders it again with other props (as its parent would). */
    const update = (changed: typeof props) => view.rerender(ui({ ...props, ...changed }));
    return { user, onSend, onStop, fileInput, services, update };
  };

  it('limits the file picker to images and PDFs and explains a refused file', async () => {
    const { user, fileInput } = setup();
    expect(fileInput).toHaveAttribute('accept', ACCEPT);
    expect(ACCEPT).toContain('image/png');
    expect(ACCEPT).toContain('application/pdf');
    await user.upload(fileInput, text());
    expect(screen.getByRole('alert')).toHaveTextContent('Unsupported file type. Please select an image or PDF.');
    expect(screen.queryByRole('list', { name: 'Attached files' })).toBeNull();
  });

  it('keeps a message over the limit whole, says how long it is, and does not send it', async () => {
    const { user, onSend } = setup();
    const box = screen.getByRole('textbox', { name: 'Message' });
    // Nothing is cut: what is pasted stays in the box as it is.
    fireEvent.change(box, { target: { value: 'a'.repeat(CHAT_TEXT_MAX + 1234) } });
    expect(box).toHaveValue('a'.repeat(CHAT_TEXT_MAX + 1234));
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This message is too long to send: 33,234 characters, at most 32,000. Shorten it, or attach the text as a PDF.',
    );
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(box, '{Enter}');
    expect(onSend).not.toHaveBeenCalled();

    // Shortened under the limit: the count stays in view near it, and the message goes.
    fireEvent.change(box, { target: { value: 'a'.repeat(CHAT_TEXT_MAX - 10) } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('31,990 of 32,000 characters')).toBeInTheDocument();
    expect(box).toHaveAccessibleDescription(/31,990 of 32,000 characters/);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('shows no count for a message far under the limit', async () => {
    const { user } = setup();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Short question');
    expect(screen.queryByText(/characters/)).toBeNull();
  });

  it('shows chips for accepted files, removes one, and sends text with the files', async () => {
    const { user, fileInput, onSend } = setup();
    await user.click(screen.getByRole('button', { name: 'Upload image or PDF' }));
    await user.upload(fileInput, [png(), pdf()]);
    const chips = screen.getByRole('list', { name: 'Attached files' });
    expect(chips).toHaveTextContent('shot.png');
    expect(chips).toHaveTextContent('doc.pdf');
    await user.click(screen.getByRole('button', { name: 'Remove shot.png' }));
    expect(chips).not.toHaveTextContent('shot.png');

    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'First line{Shift>}{Enter}{/Shift}second line');
    expect(onSend).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Ask For Web' }));
    await user.type(box, '{Enter}');
    expect(onSend).toHaveBeenCalledWith({
      text: 'First line\nsecond line',
      files: [expect.any(File)],
      webSearch: true,
    });
    expect(onSend.mock.calls[0]![0].files[0].name).toBe('doc.pdf');
    expect(box).toHaveValue('');
    expect(box).toHaveFocus();
  });

  it('turns a pasted screenshot into an attachment and refuses a pasted non-image', async () => {
    setup();
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.paste(box, { clipboardData: { files: [pdf('pasted.pdf')], getData: () => '' } });
    expect(screen.getByRole('alert')).toHaveTextContent('Please drop a valid image file.');
    fireEvent.paste(box, { clipboardData: { files: [png('image.png')], getData: () => '' } });
    expect(screen.getByRole('list', { name: 'Attached files' })).toHaveTextContent('image.png');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('checks the page or video address, and Escape stops a streaming answer', async () => {
    const { user, onSend } = setup();
    await user.click(screen.getByRole('button', { name: 'Chat with a page or video' }));
    await user.type(screen.getByRole('textbox', { name: 'Chat with a page or video' }), 'javascript:alert(1)');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'What is this?{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('http:// or https://');

    const streaming = setup({ streaming: true });
    const boxes = screen.getAllByRole('textbox', { name: 'Message' });
    await streaming.user.type(boxes[1]!, '{Escape}');
    expect(streaming.onStop).toHaveBeenCalled();
    expect(screen.getAllByRole('button', { name: 'Stop' })).toHaveLength(1);
  });

  it('counts the files attached elsewhere towards the limit and shows their chips first', async () => {
    const { user, fileInput } = setup({
      attachedCount: MAX_FILES - 1,
      chips: <li>page.html</li>,
    });
    await user.upload(fileInput, [png('1.png'), png('2.png')]);
    const chips = screen.getByRole('list', { name: 'Attached files' });
    expect(chips.firstElementChild).toHaveTextContent('page.html');
    expect(chips).toHaveTextContent('1.png');
    expect(chips).not.toHaveTextContent('2.png');
    expect(screen.getByRole('alert')).toHaveTextContent(`Attach at most ${MAX_FILES} at a time.`);
  });

  it('shows the size of a picked file in words', async () => {
    const { user, fileInput } = setup();
    await user.upload(fileInput, png('small.png', 643));
    expect(screen.getByRole('list', { name: 'Attached files' })).toHaveTextContent('643 bytes');
  });

  it('takes the focus when asked to', () => {
    setup({ autoFocus: true });
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
  });

  describe('sent before the model is known', () => {
    const setupPending = () => {
      const view = setup({ pending: true });
      return { ...view, box: screen.getByRole('textbox', { name: 'Message' }) };
    };

    it('is held in the box and goes once, as soon as the model is known', async () => {
      const { user, onSend, update, box } = setupPending();
      await user.type(box, 'Quick question{Enter}');
      expect(onSend).not.toHaveBeenCalled();
      expect(box).toHaveValue('Quick question');
      update({ pending: false, disabled: false });
      expect(onSend).toHaveBeenCalledTimes(1);
      expect(onSend).toHaveBeenCalledWith(expect.objectContaining({ text: 'Quick question' }));
      expect(box).toHaveValue('');
      update({ pending: false, disabled: false });
      expect(onSend).toHaveBeenCalledTimes(1);
    });

    it('is held from the send button too, and not sent once the text is edited (that waits for Enter)', async () => {
      const { user, onSend, update, box } = setupPending();
      await user.type(box, 'First thought');
      await user.click(screen.getByRole('button', { name: 'Send' }));
      expect(screen.getByRole('form', { name: 'Send a message' })).toHaveAttribute('aria-busy', 'true');
      await user.type(box, ', and more');
      expect(screen.getByRole('form', { name: 'Send a message' })).not.toHaveAttribute('aria-busy');
      update({ pending: false, disabled: false });
      expect(onSend).not.toHaveBeenCalled();
      expect(box).toHaveValue('First thought, and more');
      await user.type(box, '{Enter}');
      expect(onSend).toHaveBeenCalledWith(expect.objectContaining({ text: 'First thought, and more' }));
    });

    it('stays in the box when it turns out no model can answer', async () => {
      const { user, onSend, update, box } = setupPending();
      await user.type(box, 'Quick question{Enter}');
      update({ pending: false, disabled: true });
      expect(onSend).not.toHaveBeenCalled();
      expect(box).toHaveValue('Quick question');
    });
  });

  describe('voice input', () => {
    const getUserMedia = vi.fn();
    beforeEach(() => {
      getUserMedia.mockReset();
      Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
      vi.stubGlobal('MediaRecorder', class {});
    });
    afterEach(() => vi.unstubAllGlobals());

    it('says so when there is no microphone at all', async () => {
      getUserMedia.mockRejectedValue(new DOMException('Requested device not found', 'NotFoundError'));
      const { user } = setup();
      await user.click(screen.getByRole('button', { name: 'Voice input' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('No microphone was found.');
      expect(screen.getByRole('button', { name: 'Voice input' })).toBeInTheDocument();
    });

    it('says where to allow the microphone when the app knows how', async () => {
      getUserMedia.mockRejectedValue(new DOMException('Permission dismissed', 'NotAllowedError'));
      const { user } = setup({}, { microphoneHelp: <a href="#allow">Open in a tab</a> });
      await user.click(screen.getByRole('button', { name: 'Voice input' }));
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Microphone access was denied.');
      expect(alert).toContainElement(screen.getByRole('link', { name: 'Open in a tab' }));
    });

    it('has a recording transcribed by the app, and adds the words to what was typed', async () => {
      const track = { stop: vi.fn() };
      getUserMedia.mockResolvedValue({ getTracks: () => [track] });
      vi.stubGlobal(
        'MediaRecorder',
        class {
          state = 'inactive';
          mimeType = 'audio/webm';
          ondataavailable: ((event: { data: Blob }) => void) | null = null;
          onstop: (() => void) | null = null;
          start() {
            this.state = 'recording';
          }
          stop() {
            this.state = 'inactive';
            this.ondataavailable?.({ data: new Blob(['voice'], { type: 'audio/webm' }) });
            this.onstop?.();
          }
        },
      );
      const transcribe = vi.fn(async () => 'see you at noon');
      const { user } = setup({}, { transcribe });
      const box = screen.getByRole('textbox', { name: 'Message' });
      await user.type(box, 'Please note:');
      await user.click(screen.getByRole('button', { name: 'Voice input' }));
      await user.click(await screen.findByRole('button', { name: 'Done' }));
      await vi.waitFor(() => expect(box).toHaveValue('Please note: see you at noon'));
      expect(transcribe).toHaveBeenCalledWith(expect.any(Blob), expect.any(AbortSignal));
      expect(track.stop).toHaveBeenCalled();
      expect(box).toHaveFocus();
    });

    it('a transcription refused for credits says so, with the way to the plans the app gives', async () => {
      getUserMedia.mockResolvedValue({ getTracks: () => [{ stop: vi.fn() }] });
      vi.stubGlobal(
        'MediaRecorder',
        class {
          state = 'inactive';
          mimeType = 'audio/webm';
          ondataavailable: ((event: { data: Blob }) => void) | null = null;
          onstop: (() => void) | null = null;
          start() {
            this.state = 'recording';
          }
          stop() {
            this.state = 'inactive';
            this.ondataavailable?.({ data: new Blob(['voice'], { type: 'audio/webm' }) });
            this.onstop?.();
          }
        },
      );
      const refused = Object.assign(new Error('You have no credits left.'), { status: 402 });
      const { user } = setup(
        {},
        {
          transcribe: vi.fn(async () => {
            throw refused;
          }),
          errorText: (e) => (e as Error).message,
          upgradeLink: (e) => (e === refused ? <a href="/subscription">See plans</a> : null),
        },
      );
      await user.click(screen.getByRole('button', { name: 'Voice input' }));
      await user.click(await screen.findByRole('button', { name: 'Done' }));
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('You have no credits left.');
      expect(alert).toContainElement(screen.getByRole('link', { name: 'See plans' }));
      // Dismissed, it goes with its link.
      await user.click(screen.getByRole('button', { name: 'Dismiss' }));
      expect(screen.queryByRole('link', { name: 'See plans' })).toBeNull();
    });

    it("records instead when the browser's own recognition cannot work, from then on", async () => {
      getUserMedia.mockRejectedValue(new DOMException('Permission denied', 'NotAllowedError'));
      const created = vi.fn();
      // A recognizer like Chromium's without a speech service: it fails with 'network' as soon as it starts.
      class BrokenRecognition {
        onerror: ((event: { error: string }) => void) | null = null;
        onend: (() => void) | null = null;
        constructor() {
          created();
        }
        start() {
          setTimeout(() => {
            this.onerror?.({ error: 'network' });
            this.onend?.();
          }, 0);
        }
        stop() {}
        abort() {}
      }
      vi.stubGlobal('webkitSpeechRecognition', BrokenRecognition);
      const { user } = setup();
      await user.click(screen.getByRole('button', { name: 'Voice input' }));
      // The recording was tried (and refused here), not a "could not transcribe" message.
      expect(await screen.findByRole('alert')).toHaveTextContent('Microphone access was denied.');
      expect(getUserMedia).toHaveBeenCalledTimes(1);
      await user.click(screen.getByRole('button', { name: 'Voice input' }));
      await vi.waitFor(() => expect(getUserMedia).toHaveBeenCalledTimes(2));
      expect(created).toHaveBeenCalledTimes(1);
    });
  });
});
