// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import html from '../../../fixtures/sites/youtube/watch.html?raw';
import { editorState, loadFixture } from '../shared/load-fixture.js';
import { youtube } from './index.js';

const url = new URL('https://www.youtube.com/watch?v=dQx1Example&t=42s');

describe('youtube', () => {
  beforeEach(() => loadFixture(html));

  it('matches watch pages only, while the script runs site-wide', () => {
    expect(youtube.match(url)).toBe(true);
    expect(youtube.match(new URL('https://www.youtube.com/'))).toBe(false);
    expect(youtube.match(new URL('https://www.youtube.com/watch'))).toBe(false);
    expect(youtube.matches).toEqual(['https://www.youtube.com/*']);
  });

  it('finds the comment box, anchored at its buttons', () => {
    const targets = youtube.findReplyTargets(document);
    expect(targets).toHaveLength(1);
    expect(targets[0]?.editor.id).toBe('contenteditable-root');
    expect(targets[0]?.anchor.id).toBe('buttons');
  });

  it('reads the video title, channel and description for a top-level comment', () => {
    const context = youtube.readContext(youtube.findReplyTargets(document)[0]!);
    expect(context).toMatchObject({
      kind: 'video',
      title: 'Fixing a squeaky bike chain in 5 minutes',
      author: 'Workshop Wren',
    });
    expect(context.text).toContain('Description: A squeaky chain is almost always a dry chain.');
    expect(context.text).toContain('3:05 Lubing and wiping off the excess');
    expect(context.text).not.toContain('31K views');
    expect(context.text).not.toContain('A squeaky chain is almost…'); // the hidden snippet
  });

  it('reads the comment being answered for a reply box inside a thread', () => {
    const thread = document.querySelectorAll('ytd-comment-thread-renderer')[1]!;
    thread.insertAdjacentHTML(
      'beforeend',
      '<ytd-commentbox><div id="contenteditable-root" contenteditable="true"></div><div id="buttons"></div></ytd-commentbox>',
    );
    const reply = youtube.findReplyTargets(document)[1]!;
    const context = youtube.readContext(reply);
    expect(context.kind).toBe('comment-thread');
    expect(context.text).toContain(
      'Replying to the comment:\n@gearhead-lu-example: Does wax work better than oil in wet weather?',
    );
  });

  it('inserts text with line breaks and YouTube registers it', () => {
    const { editor } = youtube.findReplyTargets(document)[0]!;
    expect(youtube.insertText(editor, 'Great tip!\nWax for me.')).toBe('dom');
    expect(editorState('comment')?.text).toBe('Great tip!\nWax for me.');
    expect(document.querySelector('#submit-button')?.hasAttribute('disabled')).toBe(false);
  });

  it('summarizes with the transcript when the panel is present, else hands the server the video id', () => {
    expect(youtube.findSummaryAnchor(document)?.anchor.id).toBe('secondary-inner');
    const withTranscript = youtube.readForSummary(document, url)!;
    expect(withTranscript.videoId).toBe('dQx1Example');
    expect(withTranscript.channel).toBe('Workshop Wren');
    expect(withTranscript.transcript).toBe(
      '0:00 Hi, today we fix that squeak.\n1:10 First, clean the chain with a rag and a little degreaser.\n3:05 One drop per link, then wipe off everything you can.',
    );
    expect(withTranscript.text).toContain('Transcript: \n0:00 Hi');
    document.querySelector('ytd-engagement-panel-section-list-renderer')!.remove();
    const withoutTranscript = youtube.readForSummary(document, url)!;
    expect(withoutTranscript.transcript).toBeUndefined();
    expect(withoutTranscript.videoId).toBe('dQx1Example');
  });
});
