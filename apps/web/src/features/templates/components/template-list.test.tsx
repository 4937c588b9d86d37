import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Template } from '@parley/contract';
import { ok, renderApp } from '../../../test/render-app';
import { bodyOf, calls, IDS, refused, signedIn, threeTemplates } from '../test-fixtures';

const slow = { timeout: 10_000 };

/** The server's answer to a new order: the templates in that order, their positions renumbered. */
function reorderAnswer(list: Template[]) {
  return (_url: URL, init: RequestInit) => {
    const { ids } = JSON.parse(String(init.body)) as { ids: string[] };
    const byId = new Map(list.map((t) => [t.id, t]));
    return ok({ templates: ids.map((id, position) => ({ ...byId.get(id)!, position })) });
  };
}

/** jsdom's drag events are plain Events: the pointer's height is set by hand. */
function dragOver(row: HTMLElement, dataTransfer: object, clientY: number) {
  const event = createEvent.dragOver(row, { dataTransfer });
  Object.defineProperty(event, 'clientY', { value: clientY });
  fireEvent(row, event);
}

const titles = () =>
  within(screen.getByRole('list', { name: 'Your templates' }))
    .getAllByRole('listitem')
    .map((item) => within(item).getAllByRole('link')[0]!.textContent);

describe('/template', { timeout: 30_000 }, () => {
  it('lists the templates in their order, with the menu entry, the title and each kind', async () => {
    signedIn({ templates: threeTemplates() });
    renderApp('/template');
    expect(await screen.findByRole('link', { name: 'Meeting request' }, slow)).toBeInTheDocument();
    expect(document.title).toBe('Templates | Parley');
    expect(screen.getByRole('heading', { level: 1, name: 'Templates' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('complementary', { name: 'Main navigation' })).getByRole('link', { name: 'Templates' }),
    ).toHaveAttribute('href', '/template');
    expect(titles()).toEqual(['Thanks', 'Meeting request', 'Connection thanks']);
    const linkedin = screen.getAllByRole('listitem').find((li) => li.textContent?.includes('Connection thanks'))!;
    expect(within(linkedin).getByText('Message template')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Thanks' })).toHaveAttribute('href', `/template/${IDS.thanks}`);
    expect(screen.getByText('Templates: 3')).toBeInTheDocument();
  });

  it('searches titles and texts, filters by kind, and stops reordering while either is set', async () => {
    const user = userEvent.setup();
    signedIn({ templates: threeTemplates() });
    renderApp('/template');
    await screen.findByRole('link', { name: 'Thanks' }, slow);

    await user.type(screen.getByRole('searchbox', { name: 'Search templates' }), 'budget');
    expect(titles()).toEqual(['Meeting request']);
    expect(screen.getByText('Showing 1 of 3')).toBeInTheDocument();
    expect(screen.getByText('Clear the search and the kind to change the order.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Move / })).toBeNull();

    await user.clear(screen.getByRole('searchbox', { name: 'Search templates' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search templates' }), 'THANKS');
    expect(titles()).toEqual(['Thanks', 'Connection thanks']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'message');
    expect(titles()).toEqual(['Connection thanks']);

    await user.type(screen.getByRole('searchbox', { name: 'Search templates' }), ' nothing-like-this');
    expect(screen.getByText('No template matches')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(titles()).toEqual(['Thanks', 'Meeting request', 'Connection thanks']);
    expect(screen.getByRole('button', { name: 'Move Meeting request up' })).toBeInTheDocument();
  });

  it('moves a template with Alt+Up on its handle, says so, keeps the focus, and saves the whole order', async () => {
    const user = userEvent.setup();
    const list = threeTemplates();
    const fetchMock = signedIn({ templates: list }, { 'POST /api/template/reorder': reorderAnswer(list) });
    renderApp('/template');
    await screen.findByRole('link', { name: 'Thanks' }, slow);

    const handle = screen.getByRole('button', { name: 'Move Connection thanks, position 3 of 3' });
    handle.focus();
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(titles()).toEqual(['Thanks', 'Connection thanks', 'Meeting request']);
    expect(screen.getByTestId('reorder-announcement')).toHaveTextContent('Connection thanks moved to position 2 of 3.');
    await waitFor(() => expect(calls(fetchMock, 'POST /api/template/reorder')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'POST /api/template/reorder')[0])).toEqual({
      ids: [IDS.thanks, IDS.linkedin, IDS.meeting],
    });
    expect(screen.getByRole('button', { name: 'Move Connection thanks, position 2 of 3' })).toHaveFocus();

    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(titles()).toEqual(['Connection thanks', 'Thanks', 'Meeting request']);
    expect(screen.getByTestId('reorder-announcement')).toHaveTextContent('Connection thanks moved to position 1 of 3.');
    // At the top, Alt+Up does nothing more.
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    await waitFor(() => expect(calls(fetchMock, 'POST /api/template/reorder')).toHaveLength(2));
    expect(bodyOf(calls(fetchMock, 'POST /api/template/reorder')[1])).toEqual({
      ids: [IDS.linkedin, IDS.thanks, IDS.meeting],
    });
  });

  it('moves a template down with its button; the button keeps the focus', async () => {
    const user = userEvent.setup();
    const list = threeTemplates();
    const fetchMock = signedIn({ templates: list }, { 'POST /api/template/reorder': reorderAnswer(list) });
    renderApp('/template');
    await screen.findByRole('link', { name: 'Thanks' }, slow);

    expect(screen.getByRole('button', { name: 'Move Thanks up' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Move Thanks down' }));
    expect(titles()).toEqual(['Meeting request', 'Thanks', 'Connection thanks']);
    expect(screen.getByRole('button', { name: 'Move Thanks down' })).toHaveFocus();
    await waitFor(() => expect(calls(fetchMock, 'POST /api/template/reorder')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'POST /api/template/reorder')[0]).ids).toEqual([
      IDS.meeting,
      IDS.thanks,
      IDS.linkedin,
    ]);
  });

  it('moves a template by dragging it above another', async () => {
    const list = threeTemplates();
    const fetchMock = signedIn({ templates: list }, { 'POST /api/template/reorder': reorderAnswer(list) });
    renderApp('/template');
    await screen.findByRole('link', { name: 'Thanks' }, slow);
    const rows = within(screen.getByRole('list', { name: 'Your templates' })).getAllByRole('listitem');
    const dataTransfer = { setData: () => undefined, effectAllowed: '', dropEffect: '' };
    for (const row of rows) {
      row.getBoundingClientRect = () => ({
        top: 0,
        height: 40,
        bottom: 40,
        left: 0,
        right: 0,
        width: 0,
        x: 0,
        y: 0,
        toJSON: () => '',
      });
    }

    fireEvent.dragStart(rows[2]!, { dataTransfer });
    // Over the upper half of the first row: drop before it.
    dragOver(rows[0]!, dataTransfer, 5);
    fireEvent.drop(rows[0]!, { dataTransfer });
    fireEvent.dragEnd(rows[2]!, { dataTransfer });

    await waitFor(() => expect(titles()).toEqual(['Connection thanks', 'Thanks', 'Meeting request']));
    expect(screen.getByTestId('reorder-announcement')).toHaveTextContent('Connection thanks moved to position 1 of 3.');
    await waitFor(() => expect(calls(fetchMock, 'POST /api/template/reorder')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'POST /api/template/reorder')[0]).ids).toEqual([
      IDS.linkedin,
      IDS.thanks,
      IDS.meeting,
    ]);

    // Over the lower half of the last row: drop after it.
    const again = within(screen.getByRole('list', { name: 'Your templates' })).getAllByRole('listitem');
    for (const row of again) {
      row.getBoundingClientRect = () => ({
        top: 0,
        height: 40,
        bottom: 40,
        left: 0,
        right: 0,
        width: 0,
        x: 0,
        y: 0,
        toJSON: () => '',
      });
    }
    fireEvent.dragStart(again[0]!, { dataTransfer });
    dragOver(again[2]!, dataTransfer, 35);
    fireEvent.drop(again[2]!, { dataTransfer });
    await waitFor(() => expect(titles()).toEqual(['Thanks', 'Meeting request', 'Connection thanks']));
  });

  it('a refused order (changed elsewhere) says so and shows the order the server has', async () => {
    const user = userEvent.setup();
    const list = threeTemplates();
    let reads = 0;
    const fetchMock = signedIn(
      {},
      {
        'GET /api/template/getAll': () => {
          reads += 1;
          // Meanwhile, elsewhere, the meeting request was deleted.
          return ok({ templates: reads === 1 ? list : [list[0], list[2]] });
        },
        'POST /api/template/reorder': refused(400, 'REORDER_MISMATCH', 'Your templates changed meanwhile.'),
      },
    );
    renderApp('/template');
    await screen.findByRole('link', { name: 'Thanks' }, slow);
    await user.click(screen.getByRole('button', { name: 'Move Thanks down' }));
    expect(await screen.findByText('Your templates changed meanwhile.')).toBeInTheDocument();
    await waitFor(() => expect(titles()).toEqual(['Thanks', 'Connection thanks']), { timeout: 5000 });
    expect(calls(fetchMock, 'GET /api/template/getAll').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByTestId('reorder-announcement')).toHaveTextContent('The order was not saved.');
  });

  it('deletes a template after a confirmation, and tells the extension its templates changed', async () => {
    const user = userEvent.setup();
    const post = vi.spyOn(window, 'postMessage');
    const toldExtension = () =>
      post.mock.calls.filter(([message]) => (message as { type?: string }).type === 'PARLEY_TEMPLATES_CHANGED');
    const fetchMock = signedIn(
      { templates: threeTemplates() },
      { [`DELETE /api/template/delete/${IDS.meeting}`]: ok({ deleted: 1 }, 'Template deleted.') },
    );
    renderApp('/template');
    await screen.findByRole('link', { name: 'Thanks' }, slow);
    await user.click(screen.getByRole('button', { name: 'Delete Meeting request' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete “Meeting request”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls(fetchMock, `DELETE /api/template/delete/${IDS.meeting}`)).toHaveLength(0);
    expect(toldExtension()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Meeting request' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Delete “Meeting request”?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(titles()).toEqual(['Thanks', 'Connection thanks']));
    expect(calls(fetchMock, `DELETE /api/template/delete/${IDS.meeting}`)).toHaveLength(1);
    // On this window and origin only (the extension's bridge listens there), and nothing but the fact.
    expect(toldExtension()).toEqual([[{ type: 'PARLEY_TEMPLATES_CHANGED' }, window.location.origin]]);
  });

  it('says when there are none yet, and leads to making one', async () => {
    signedIn();
    renderApp('/template');
    expect(await screen.findByText('No templates yet', {}, slow)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'New template' })[0]).toHaveAttribute('href', '/new-template');
  });
});
