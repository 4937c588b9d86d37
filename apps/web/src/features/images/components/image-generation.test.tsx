import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeProfile, ok, renderApp } from '../../../test/render-app';
import {
  fileOf,
  GIF_BYTES,
  IDS,
  makeImage,
  makeModels,
  partsOf,
  PNG_BYTES,
  signedIn,
  stubObjectUrls,
} from '../test-fixtures';

const slow = { timeout: 10_000 };

beforeEach(() => {
  stubObjectUrls();
});

const modelRadio = (name: RegExp) => screen.getByRole('radio', { name });

describe('/image-generation', { timeout: 30_000 }, () => {
  it('has its title, its menu entry, and each model with its tier and price; a model without a key is disabled', async () => {
    signedIn();
    renderApp('/image-generation');
    expect(await screen.findByRole('heading', { level: 1, name: 'Image generation' }, slow)).toBeInTheDocument();
    expect(document.title).toBe('Image generation | Parley');
    const menu = screen.getByRole('complementary', { name: 'Main navigation' });
    expect(within(menu).getByRole('link', { name: 'Image generation' })).toHaveAttribute('href', '/image-generation');
    expect(within(menu).getByRole('link', { name: 'Image editor' })).toHaveAttribute('href', '/image-editor');

    const flux = await screen.findByRole('radio', { name: /FLUX1\.1 \[pro\]/ }, slow);
    // The first usable model is chosen; its details say its price per image.
    expect(flux).toBeChecked();
    expect(flux).toHaveAccessibleDescription('Credits per image: 2');
    expect(flux.closest('label')).toHaveTextContent('Advanced');
    expect(modelRadio(/FLUX\.1 \[dev\] \(fal\)/)).toHaveAccessibleDescription('Credits per image: 1');
    const dalle = modelRadio(/DALL·E 3/);
    expect(dalle).toBeDisabled();
    expect(dalle).toHaveAccessibleDescription('Unavailable: this server has no key for it');
    expect(screen.getByRole('link', { name: 'Add an API key' })).toHaveAttribute('href', '/setting/api-keys');
    // Editing-only models are not offered for generation.
    expect(screen.queryByRole('radio', { name: /Background removal/ })).toBeNull();
  });

  it('names in French the models whose names say something in words; the others keep their names', async () => {
    signedIn({}, { 'GET /api/user/profile': ok(makeProfile({ language: 'fr' })) });
    renderApp('/image-generation');
    expect(
      await screen.findByRole('radio', { name: /Stable Diffusion \(compatible OpenAI\)/ }, slow),
    ).toBeInTheDocument();
    expect(modelRadio(/FLUX1\.1 \[pro\]/)).toBeInTheDocument();
    expect(screen.queryByText(/OpenAI-compatible/)).toBeNull();
  });

  it('offers the chosen model’s shapes, up to its number of images, and a reference only where it follows one', async () => {
    const user = userEvent.setup();
    signedIn({
      models: makeModels({ DALL_E_3: { available: true, keySource: 'own' }, GPT_IMAGE_1: { maxImages: 2 } }),
    });
    renderApp('/image-generation');
    await screen.findByRole('radio', { name: /FLUX1\.1 \[pro\]/ }, slow);
    const shapes = () =>
      within(screen.getByRole('group', { name: 'Shape' }))
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value'));
    expect(shapes()).toEqual(['1:1', '16:9', '9:16', '4:3', '3:4']);
    await user.click(screen.getByRole('radio', { name: 'Portrait (3:4)' }));
    expect(screen.getByRole('button', { name: 'Add a reference image' })).toBeInTheDocument();

    await user.click(modelRadio(/DALL·E 3/));
    expect(shapes()).toEqual(['1:1', '16:9', '9:16']);
    // 3:4 is not DALL·E 3's: the first shape is taken.
    expect(screen.getByRole('radio', { name: 'Square (1:1)' })).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Add a reference image' })).toBeNull();
    // With the person's own key: nothing per image, and nothing for the request.
    expect(modelRadio(/DALL·E 3/)).toHaveAccessibleDescription('Uses your API key: no credits');
    expect(screen.getAllByText('Uses your API key: no credits')).toHaveLength(2);

    await user.click(screen.getByRole('radio', { name: '4' }));
    await user.click(modelRadio(/GPT Image 1/));
    const counts = within(screen.getByRole('group', { name: 'Images' })).getAllByRole('radio');
    expect(counts.map((r) => r.getAttribute('value'))).toEqual(['1', '2']);
    expect(screen.getByRole('radio', { name: '2' })).toBeChecked();
    expect(screen.getByText('Cost in credits: 4')).toBeInTheDocument();
  });

  it('asks for a prompt, then posts the fields and the reference, shows the progress, then the images', async () => {
    // A file of the wrong kind reaches the page (a drop, or "All files" in the picker): not filtered by `accept`.
    const user = userEvent.setup({ applyAccept: false });
    const made = [
      makeImage({ id: IDS.fox, prompt: 'A red fox in the snow' }),
      makeImage({ id: IDS.cat, prompt: 'A red fox in the snow', versions: [] }),
    ];
    let answer!: (value: unknown) => void;
    const fetchMock = signedIn(
      {},
      {
        'POST /api/ai/imageGeneration': () =>
          new Promise((resolve) => {
            answer = resolve;
          }) as never,
      },
    );
    renderApp('/image-generation');
    await screen.findByRole('radio', { name: /FLUX1\.1 \[pro\]/ }, slow);

    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Describe the image you want.');
    expect(screen.getByLabelText('Describe the image')).toHaveFocus();

    await user.type(screen.getByLabelText('Describe the image'), 'A red fox in the snow');
    await user.click(screen.getByRole('radio', { name: 'Landscape (16:9)' }));
    await user.click(screen.getByRole('radio', { name: '2' }));
    // A GIF as reference is refused before anything is sent; a PNG is taken.
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    await user.upload(input, fileOf(GIF_BYTES, 'cat.gif', 'image/gif'));
    expect(await screen.findByText('Only PNG and JPEG are supported in the image editor.')).toBeInTheDocument();
    await user.upload(input, fileOf(PNG_BYTES, 'style.png', 'image/png'));
    expect(await screen.findByRole('button', { name: 'Remove style.png' })).toBeInTheDocument();
    expect(screen.getByText('Cost in credits: 4')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const progress = await screen.findByRole('heading', { name: 'Generating: 2' });
    expect(progress).toBeInTheDocument();
    expect(screen.getByText('Image 1 of 2')).toBeInTheDocument();
    expect(screen.getByText('Image 2 of 2')).toBeInTheDocument();
    expect(screen.getByText(/^Elapsed: 0/)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Generating images: 2. This can take a minute.');

    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/ai/imageGeneration'))!;
    expect(partsOf(call[1])).toEqual([
      ['prompt', 'A red fox in the snow'],
      ['model', 'FLUX_1_1_PRO'],
      ['aspectRatio', '16:9'],
      ['count', '2'],
      ['reference', 'file:style.png'],
    ]);

    await act(async () => answer(ok({ images: made, missing: 1 })));
    const results = await screen.findByRole('heading', { name: 'Just made' });
    const section = results.closest('section')!;
    expect(within(section).getAllByRole('listitem')).toHaveLength(2);
    expect(within(section).getByRole('status')).toHaveTextContent('Images the provider did not make (not charged): 1.');
    expect(screen.getByText('Done. Images made: 2.')).toBeInTheDocument();
    expect(within(section).getAllByRole('link', { name: 'Edit' })[0]).toHaveAttribute(
      'href',
      `/image-editor/${IDS.fox}`,
    );
  });

  it('stop aborts the request and says so', async () => {
    const user = userEvent.setup();
    let signal: AbortSignal | undefined;
    signedIn(
      {},
      {
        'POST /api/ai/imageGeneration': (_url, init) => {
          signal = init.signal ?? undefined;
          return new Promise((_resolve, reject) =>
            signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
          ) as never;
        },
      },
    );
    renderApp('/image-generation');
    await screen.findByRole('radio', { name: /FLUX1\.1 \[pro\]/ }, slow);
    await user.type(screen.getByLabelText('Describe the image'), 'A fox');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await user.click(await screen.findByRole('button', { name: 'Stop' }));
    expect(signal?.aborted).toBe(true);
    await waitFor(() => expect(screen.queryByRole('heading', { name: /Generating/ })).toBeNull());
    expect(screen.getByText('Stopped.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the server’s refusal, and the plans when credits ran out', async () => {
    const user = userEvent.setup();
    let refusal = { status: 422, body: { status: 422, code: 'IMAGE_REFUSED', message: 'The image model declined.' } };
    signedIn({}, { 'POST /api/ai/imageGeneration': () => refusal });
    renderApp('/image-generation');
    await screen.findByRole('radio', { name: /FLUX1\.1 \[pro\]/ }, slow);
    await user.type(screen.getByLabelText('Describe the image'), 'A fox');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The image model declined.');
    expect(screen.queryByRole('link', { name: 'See the plans' })).toBeNull();

    refusal = {
      status: 402,
      body: {
        status: 402,
        code: 'OUT_OF_CREDITS',
        message: 'No credits left.',
        credits: { tier: 'advance', needed: 1200, available: 3 },
      },
    } as typeof refusal;
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('No credits left.'));
    expect(screen.getByRole('alert')).toHaveTextContent('This needs 1,200 Advanced credits; you have 3.');
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/subscription');
    // Another model is not what was refused: the refusal goes.
    await user.click(screen.getByRole('radio', { name: /FLUX\.1 \[dev\]/ }));
    expect(screen.queryByText('No credits left.')).toBeNull();
  });

  it('lists the history newest first, a page at a time, copies a prompt and deletes after a confirmation', async () => {
    const user = userEvent.setup();
    const first = makeImage({ id: IDS.fox, prompt: 'A red fox' });
    const second = makeImage({ id: IDS.cat, prompt: 'A grey cat', source: 'generated' });
    const fetchMock = signedIn(
      { images: [first], nextCursor: 'page-2' },
      {
        'GET /api/images': (url) =>
          url.searchParams.get('cursor') === 'page-2'
            ? ok({ images: [second], nextCursor: null })
            : ok({ images: [first], nextCursor: 'page-2' }),
        [`DELETE /api/images/delete/${IDS.fox}`]: ok(null, 'Image deleted.'),
      },
    );
    renderApp('/image-generation');
    const history = await screen.findByRole('list', { name: 'Your images' }, slow);
    expect(within(history).getAllByRole('listitem')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();

    const fox = within(history).getAllByRole('listitem')[0]!;
    expect(fox).toHaveTextContent('FLUX1.1 [pro]');
    expect(fox).toHaveTextContent('May 1, 2026');
    await user.click(within(fox).getByRole('button', { name: 'Copy the prompt' }));
    await expect(navigator.clipboard.readText()).resolves.toBe('A red fox');

    await user.click(within(fox).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this image?' });
    expect(dialog).toHaveTextContent('“A red fox” and all its versions will be deleted for good.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(1));
    expect(history).toHaveTextContent('A grey cat');
    expect(
      fetchMock.mock.calls.some(([url, init]) => String(url).includes('/delete/') && init?.method === 'DELETE'),
    ).toBe(true);
  });

  it('downloads an image with its name and the right extension', async () => {
    const user = userEvent.setup();
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    const fox = makeImage({ prompt: 'A red fox', name: 'A red fox' });
    signedIn({ images: [fox] }, { [`GET /api/images/file/${IDS.v1}`]: ok(null) });
    renderApp('/image-generation');
    const history = await screen.findByRole('list', { name: 'Your images' }, slow);
    await user.click(within(history).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(clicks).toEqual(['A-red-fox.png']));
  });
});
