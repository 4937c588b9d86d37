import { describe, expect, it } from 'vitest';
import { formatTimestamp, parseJson3, transcriptPage, transcriptText, youtubeVideoId } from './youtube';

describe('youtubeVideoId', () => {
  it('reads the id of a watch page', () => {
    expect(youtubeVideoId('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
    expect(youtubeVideoId('https://m.youtube.com/watch?t=42&v=dQw4w9WgXcQ&list=x')).toBe('dQw4w9WgXcQ');
  });

  it('is null elsewhere', () => {
    expect(youtubeVideoId('https://www.youtube.com/')).toBeNull();
    expect(youtubeVideoId('https://www.youtube.com/results?search_query=x')).toBeNull();
    expect(youtubeVideoId('https://www.youtube.com/watch?v=short')).toBeNull();
    expect(youtubeVideoId('https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ')).toBeNull();
    expect(youtubeVideoId('http://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBeNull();
    expect(youtubeVideoId(undefined)).toBeNull();
  });
});

describe('json3 transcripts', () => {
  const json3 = {
    wireMagic: 'pb3',
    events: [
      { tStartMs: 0, dDurationMs: 100000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
      { tStartMs: 1200, dDurationMs: 3000, wWinId: 1, segs: [{ utf8: 'Welcome to the' }, { utf8: ' workshop' }] },
      { tStartMs: 4200, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] },
      {
        tStartMs: 65_000,
        dDurationMs: 2000,
        segs: [{ utf8: 'Sand\u00a0the  edges  ', tOffsetMs: 0 }, { acAsrConf: 0 }],
      },
      { tStartMs: 3_725_500, segs: [{ utf8: '[Music]' }] },
      { segs: 'not a list' },
      'garbage',
    ],
  };

  it('keeps the lines with words, with their start in seconds', () => {
    expect(parseJson3(json3)).toEqual([
      { start: 1.2, text: 'Welcome to the workshop' },
      { start: 65, text: 'Sand the edges' },
      { start: 3725.5, text: '[Music]' },
    ]);
  });

  it('gives nothing for what is not json3', () => {
    expect(parseJson3(null)).toEqual([]);
    expect(parseJson3({ events: 'x' })).toEqual([]);
    expect(parseJson3('<transcript/>')).toEqual([]);
  });

  it('writes the transcript with a timestamp on each line', () => {
    expect(formatTimestamp(0)).toBe('0:00');
    expect(formatTimestamp(65.9)).toBe('1:05');
    expect(formatTimestamp(3725.5)).toBe('1:02:05');
    expect(transcriptText(parseJson3(json3))).toBe(
      '[0:01] Welcome to the workshop\n[1:05] Sand the edges\n[1:02:05] [Music]',
    );
  });

  it('sends title, address and transcript as the page, cut to the limit', () => {
    const url = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
    const page = transcriptPage({ title: '  Building  a shelf ', url, transcript: '[0:01] Hello' });
    expect(page).toEqual({
      title: 'Building a shelf',
      url,
      text: `Building a shelf\n${url}\n\n[0:01] Hello`,
      originalLength: 12,
      truncated: false,
    });
    const long = transcriptPage({ title: 'T', url, transcript: 'x'.repeat(500) }, 100);
    expect(long.truncated).toBe(true);
    expect(long.text).toHaveLength(100);
    expect(long.originalLength).toBe(500);
  });
});
