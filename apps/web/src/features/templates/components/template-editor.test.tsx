import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDate } from '@parley/i18n';
import { ok, renderApp } from '../../../test/render-app';
import { bodyOf, calls, IDS, makeTemplate, refused, signedIn, threeTemplates } from '../test-fixtures';

const slow = { timeout: 10_000 };
const preview = () => screen.getByTestId('template-preview');

describe('the template editor', { timeout: 30_000 }, () => {
  it('previews the text with sample values as it is written, and inserts variables at the caret', async () => {
    const user = userEvent.setup();
    signedIn();
    renderApp('/template/new?kind=message');
    const body = await screen.findByRole('textbox', { name: 'Text' }, slow);
    expect(document.title).toBe('New template | Parley');
    expect(screen.getByRole('heading', { level: 1, name: 'New template' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Kind' })).toHaveValue('message');
    expect(preview()).toHaveTextContent('Your text shows here as you write it.');

    const area = body as HTMLTextAreaElement;
    await user.type(body, 'Hi , see you on .');
    // The caret after "Hi ": the variable goes there, and the caret after it.
    area.setSelectionRange(3, 3);
    await user.click(screen.getByRole('button', { name: 'Insert the variable First name' }));
    expect(body).toHaveValue('Hi {{first_name}}, see you on .');
    await waitFor(() => expect(body).toHaveFocus());
    expect(area.selectionStart).toBe('Hi {{first_name}}'.length);

    area.setSelectionRange(area.value.length - 1, area.value.length - 1);
    await user.click(screen.getByRole('button', { name: 'Insert the variable Today’s date' }));
    await waitFor(() => expect(area.selectionStart).toBe(area.value.length - 1));
    area.setSelectionRange(area.value.length, area.value.length);
    await user.click(screen.getByRole('button', { name: 'Insert the variable My name' }));
    expect(body).toHaveValue('Hi {{first_name}}, see you on {{date}}.{{my_name}}');

    const today = formatDate(new Date(), 'en');
    // Sample values, and the person's own name for my_name; contract's fillTemplate fills them.
    expect(preview()).toHaveTextContent(`Hi Sam, see you on ${today}.Ada Lovelace`);
    const legend = screen.getByText('{{first_name}}').closest('dl')!;
    expect(within(legend).getByText('Sam')).toBeInTheDocument();
  });

  it('checks the title and the text, then adds the template and goes back to the list', async () => {
    const user = userEvent.setup();
    const created = makeTemplate({ id: IDS.meeting, title: 'Quick thanks', body: 'Thanks, {{first_name}}!' });
    const fetchMock = signedIn({}, { 'POST /api/template/add': ok(created, 'Template added.') });
    renderApp('/template/new');
    await screen.findByRole('textbox', { name: 'Text' }, slow);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Give it a title.')).toBeInTheDocument();
    expect(screen.getByText('Write its text.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveFocus();
    expect(calls(fetchMock, 'POST /api/template/add')).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Quick thanks');
    await user.type(screen.getByRole('textbox', { name: 'Text' }), 'Thanks, {{{{first_name}}!');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Tone' }), 'FRIENDLY');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls(fetchMock, 'POST /api/template/add')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'POST /api/template/add')[0])).toEqual({
      kind: 'mail',
      title: 'Quick thanks',
      body: 'Thanks, {{first_name}}!',
      language: null,
      tone: 'FRIENDLY',
      length: null,
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Templates' })).toBeInTheDocument();
  });

  it('opens a template by its id, saves changes with PUT, and deletes after a confirmation', async () => {
    const user = userEvent.setup();
    const template = makeTemplate({ tone: 'FORMAL', language: 'FRENCH' });
    const fetchMock = signedIn(
      { templates: threeTemplates() },
      {
        [`GET /api/template/get/${IDS.thanks}`]: ok(template),
        [`PUT /api/template/update/${IDS.thanks}`]: (_url, init) =>
          ok({ ...template, ...JSON.parse(String(init.body)) }, 'Template saved.'),
        [`DELETE /api/template/delete/${IDS.thanks}`]: ok({ deleted: 1 }, 'Template deleted.'),
      },
    );
    renderApp(`/template/${IDS.thanks}`);
    const title = await screen.findByRole('textbox', { name: 'Title' }, slow);
    expect(document.title).toBe('Edit template | Parley');
    expect(title).toHaveValue('Thanks');
    expect(screen.getByRole('combobox', { name: 'Tone' })).toHaveValue('FORMAL');
    expect(screen.getByRole('combobox', { name: 'Language of the text' })).toHaveValue('FRENCH');
    expect(preview()).toHaveTextContent('Hi Sam, Thank you! Ada Lovelace');

    await user.clear(title);
    await user.type(title, 'Thanks a lot');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'customReply');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls(fetchMock, `PUT /api/template/update/${IDS.thanks}`)).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, `PUT /api/template/update/${IDS.thanks}`)[0])).toMatchObject({
      kind: 'customReply',
      title: 'Thanks a lot',
      tone: 'FORMAL',
      language: 'FRENCH',
    });
    expect(await screen.findByText('Template saved.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete “Thanks a lot”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Templates' })).toBeInTheDocument();
    expect(calls(fetchMock, `DELETE /api/template/delete/${IDS.thanks}`)).toHaveLength(1);
  });

  it('says when a template is not there (another person’s, or no such id)', async () => {
    signedIn({}, { [`GET /api/template/get/${IDS.meeting}`]: refused(404, 'NOT_FOUND', 'Not found') });
    renderApp(`/template/${IDS.meeting}`);
    expect(await screen.findByText('This template does not exist, or it is not yours.', {}, slow)).toBeInTheDocument();
  });

  it('an address that is no id is not found either, without asking', async () => {
    const fetchMock = signedIn();
    renderApp('/template/not-an-id');
    expect(await screen.findByText('This template does not exist, or it is not yours.', {}, slow)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/template/get/'))).toBe(false);
  });
});
