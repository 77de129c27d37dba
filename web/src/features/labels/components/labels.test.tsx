import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Label } from '#shared/schemas/labels.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { LabelChips } from './label-chips.tsx';
import { LabelPicker } from './label-picker.tsx';

const BUG: Label = { _id: 'l-bug', name: 'Bug', color: 'red' };
const DESIGN: Label = { _id: 'l-design', name: 'Design', color: 'purple' };
const DOCS: Label = { _id: 'l-docs', name: 'Docs', color: 'teal' };
const LABELS = [BUG, DESIGN, DOCS];

const labelsAnswer = (labels: Label[]) => json(200, { status: 'success', data: { labels } });

/** The chips alone, with the language the app provides. */
const withI18n = { wrapper: ({ children }: { children: ReactNode }) => <I18nProvider i18n={i18n}>{children}</I18nProvider> };

describe('label chips', () => {
  it('name every label in a list called "Labels", and render nothing without labels', () => {
    const { container, rerender } = render(<LabelChips labels={LABELS} />, withI18n);
    const list = screen.getByRole('list', { name: 'Labels' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Bug', 'Design', 'Docs']);
    // The colour is a class; the name is always there as text.
    expect(within(list).getByText('Bug')).toHaveClass('label-chip', 'label-chip--red');
    rerender(<LabelChips labels={[]} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('on a card show the first few and name the rest behind "+N"', () => {
    render(<LabelChips labels={LABELS} max={1} />, withI18n);
    const items = within(screen.getByRole('list', { name: 'Labels' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Bug');
    expect(items[1]).toHaveTextContent('+2');
    expect(items[1]).toHaveTextContent('2 more: Design and Docs');
  });
});

/** The picker over a board's labels, holding the chosen set the way the task page does. */
function Harness({ initial = [] as Label[], canCreate = true, onChange }: { initial?: Label[]; canCreate?: boolean; onChange: (labels: Label[]) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <LabelPicker
        boardId="team"
        value={value}
        canCreate={canCreate}
        onChange={(labels) => {
          onChange(labels);
          setValue(labels);
        }}
      />
      <LabelChips labels={value} />
      <button type="button">Elsewhere</button>
    </>
  );
}

describe('the label picker', () => {
  it('filters as you type, ticks with the keyboard and hands the whole set over once, on Done', async () => {
    mockFetch().always('GET', '/boards/team/labels', labelsAnswer(LABELS));
    const onChange = vi.fn();
    const { user } = renderWithProviders(<Harness initial={[DOCS]} onChange={onChange} />);
    const button = screen.getByRole('button', { name: 'Edit labels' });
    await user.click(button);
    const panel = screen.getByRole('dialog', { name: 'Labels' });
    const filter = within(panel).getByRole('combobox', { name: 'Filter or create labels' });
    expect(filter).toHaveFocus();
    const listbox = within(panel).getByRole('listbox', { name: 'Labels' });
    expect(listbox).toHaveAttribute('aria-multiselectable', 'true');
    await waitFor(() => {
      expect(within(listbox).getAllByRole('option')).toHaveLength(3);
    });
    expect(within(listbox).getByRole('option', { name: 'Docs' })).toHaveAttribute('aria-selected', 'true');

    await user.type(filter, 'de');
    expect(within(listbox).getAllByRole('option')).toEqual([
      within(listbox).getByRole('option', { name: 'Design' }),
      within(listbox).getByRole('option', { name: 'Create label “de”' }),
    ]);
    // The first option is the active one; Enter ticks it, and focus stays in the box.
    expect(filter).toHaveAttribute('aria-activedescendant', within(listbox).getByRole('option', { name: 'Design' }).id);
    await user.keyboard('{Enter}');
    expect(within(listbox).getByRole('option', { name: 'Design' })).toHaveAttribute('aria-selected', 'true');
    expect(filter).toHaveFocus();
    expect(panel).toHaveTextContent('2 of 10');
    expect(onChange).not.toHaveBeenCalled();

    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange.mock.calls[0]?.[0]).toEqual([DOCS, DESIGN]);
    expect(panel).not.toBeVisible();
    expect(button).toHaveFocus();
  });

  it('creates a label in place with the colour chosen, and ticks it', async () => {
    const api = mockFetch().always('GET', '/boards/team/labels', labelsAnswer(LABELS));
    const created: Label = { _id: 'l-ops', name: 'Ops', color: 'teal' };
    api.on('POST', '/boards/team/labels', json(201, { status: 'success', message: 'Label created.', data: { label: created } }));
    const onChange = vi.fn();
    const { user } = renderWithProviders(<Harness onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'Add labels' }));
    const panel = screen.getByRole('dialog', { name: 'Labels' });
    await waitFor(() => {
      expect(within(panel).getAllByRole('option')).toHaveLength(3);
    });
    await user.type(within(panel).getByRole('combobox'), '  Ops');
    // "Ops" matches no label: the only option is to create it.
    const create = within(panel).getByRole('option', { name: 'Create label “Ops”' });
    expect(within(panel).getByRole('combobox')).toHaveAttribute('aria-activedescendant', create.id);
    await user.keyboard('{Enter}');

    const colors = within(panel).getByRole('group', { name: 'Color' });
    expect(within(colors).getAllByRole('radio')).toHaveLength(10);
    expect(within(colors).getByRole('radio', { checked: true })).toHaveFocus();
    await user.click(within(colors).getByRole('radio', { name: 'Teal' }));
    await user.click(within(panel).getByRole('button', { name: 'Create label' }));

    await waitFor(() => {
      expect(within(panel).getByRole('option', { name: 'Ops' })).toHaveAttribute('aria-selected', 'true');
    });
    expect(api.callsTo('POST', '/boards/team/labels')[0]?.body).toEqual({ name: 'Ops', color: 'teal' });
    expect(within(panel).getByRole('combobox')).toHaveFocus();
    expect(within(panel).getByRole('combobox')).toHaveValue('');

    // Esc closes the panel too, and hands the set over.
    await user.keyboard('{Escape}');
    expect(onChange).toHaveBeenCalledWith([created]);
    expect(within(screen.getByRole('list', { name: 'Labels' })).getByText('Ops')).toBeInTheDocument();
  });

  it('says why the server refused a new label, and keeps the colour choice open', async () => {
    const api = mockFetch().always('GET', '/boards/team/labels', labelsAnswer(LABELS));
    api.on('POST', '/boards/team/labels', json(409, { status: 'fail', code: 'LABEL_EXISTS', message: 'This board has a label with that name already.' }));
    const { user } = renderWithProviders(<Harness onChange={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Add labels' }));
    const panel = screen.getByRole('dialog', { name: 'Labels' });
    await waitFor(() => {
      expect(within(panel).getAllByRole('option')).toHaveLength(3);
    });
    await user.type(within(panel).getByRole('combobox'), 'Ops');
    await user.keyboard('{Enter}');
    await user.click(within(panel).getByRole('button', { name: 'Create label' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('This board has a label with that name already.');
    expect(within(panel).getByRole('group', { name: 'Color' })).toBeInTheDocument();
    // Esc leaves the colour choice first, back to the filter box; the panel stays open.
    await user.keyboard('{Escape}');
    expect(within(panel).getByRole('combobox')).toHaveFocus();
    expect(panel).toBeVisible();
  });

  it('offers no "Create" to someone who may only pick (an assignee who is a viewer), and hands nothing over unchanged', async () => {
    mockFetch().always('GET', '/boards/team/labels', labelsAnswer(LABELS));
    const onChange = vi.fn();
    const { user } = renderWithProviders(<Harness canCreate={false} onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'Add labels' }));
    const panel = screen.getByRole('dialog', { name: 'Labels' });
    const filter = within(panel).getByRole('combobox', { name: 'Filter labels' });
    await waitFor(() => {
      expect(within(panel).getAllByRole('option')).toHaveLength(3);
    });
    await user.type(filter, 'zzz');
    expect(within(panel).queryAllByRole('option')).toHaveLength(0);
    expect(panel).toHaveTextContent('No label matches.');
    // Tab out: the panel closes; nothing changed, so nothing is saved.
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(panel).not.toBeVisible();
    expect(onChange).not.toHaveBeenCalled();
  });
});
