import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingSelect, SettingSwitch } from './settings-fields.js';

afterEach(() => vi.useRealTimers());

/** A caller whose value comes back through a store a moment later, as react-query's does. */
function Later({ refuse = false }: { refuse?: boolean }) {
  const [on, setOn] = useState(true);
  const [length, setLength] = useState<'SHORT' | 'LONG'>('SHORT');
  return (
    <>
      <SettingSwitch
        name="instantReplyLinkedin"
        label="LinkedIn"
        checked={on}
        onChange={(value) => setTimeout(() => !refuse && setOn(value), 50)}
      />
      <SettingSelect
        name="length"
        label="Length"
        value={length}
        options={[
          { value: 'SHORT', label: 'Short' },
          { value: 'LONG', label: 'Long' },
        ]}
        onChange={(value) => setTimeout(() => !refuse && setLength(value), 50)}
      />
    </>
  );
}

describe('settings controls', () => {
  it('show the chosen value at once, before the caller’s store has it', () => {
    vi.useFakeTimers();
    render(<Later />);
    fireEvent.click(screen.getByRole('switch', { name: 'LinkedIn' }));
    expect(screen.getByRole('switch', { name: 'LinkedIn' })).not.toBeChecked();
    fireEvent.change(screen.getByRole('combobox', { name: 'Length' }), { target: { value: 'LONG' } });
    expect(screen.getByRole('combobox', { name: 'Length' })).toHaveValue('LONG');
    act(() => void vi.advanceTimersByTime(60));
    expect(screen.getByRole('switch', { name: 'LinkedIn' })).not.toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Length' })).toHaveValue('LONG');
  });

  it('show the caller’s value again when it never took the change', () => {
    vi.useFakeTimers();
    render(<Later refuse />);
    fireEvent.click(screen.getByRole('switch', { name: 'LinkedIn' }));
    expect(screen.getByRole('switch', { name: 'LinkedIn' })).not.toBeChecked();
    act(() => void vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('switch', { name: 'LinkedIn' })).toBeChecked();
  });
});
