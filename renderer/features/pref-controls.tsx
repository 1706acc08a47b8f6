// The one way a setting is saved in Preferences: when the edit is committed
// — a choice made, a box ticked, Enter or leaving a number field — at once,
// with no Save button anywhere. What happened shows beside the field:
// "Saving…", "Saved", or what is wrong in words. A number the hub's bounds
// refuse stays in its field with the reason (never sent, never dropped
// silently); the hub's own refusal shows in the same place; Escape puts the
// saved value back.
import { useEffect, useState, type ReactNode } from 'react';
import { checkNumber, type PrefField } from './pref-fields.js';

export type FieldState = { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; text: string };

/** The ids a control's aria-describedby names: its help line and its status. */
export function fieldIds(key: string): { help: string; status: string } {
  const id = key.replace(/\W/g, '-');
  return { help: `help-${id}`, status: `status-${id}` };
}

/** Beside a control: what its last commit did. An error is announced; "Saved" is said politely. */
export function FieldStatus({ fieldKey, state }: { fieldKey: string; state: FieldState | undefined }): ReactNode {
  const id = fieldIds(fieldKey).status;
  if (state?.kind === 'error')
    return (
      <div className="field-error" id={id} role="alert">
        {state.text}
      </div>
    );
  return (
    <div className="field-status dim" id={id} aria-live="polite">
      {state?.kind === 'saving' ? 'Saving…' : state?.kind === 'saved' ? 'Saved' : ''}
    </div>
  );
}

/** A number in the field's shown unit (seconds for a millisecond setting), saved in the stored unit on commit. */
export function NumberField({
  field,
  value,
  disabled,
  state,
  save,
  report,
}: {
  field: PrefField;
  value: number;
  disabled: boolean;
  state: FieldState | undefined;
  save: (stored: number) => void;
  report: (state: FieldState | undefined) => void;
}): ReactNode {
  const shown = String(value / (field.scale ?? 1));
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]); // a saved or outside change replaces the draft
  const commit = (): void => {
    if (text === shown) return report(state?.kind === 'error' ? undefined : state);
    const r = checkNumber(field, text);
    if ('error' in r) report({ kind: 'error', text: r.error });
    else save(r.value);
  };
  const ids = fieldIds(field.key);
  return (
    <input
      className="number-field"
      aria-label={field.label}
      aria-describedby={`${ids.help} ${ids.status}`}
      aria-invalid={state?.kind === 'error'}
      inputMode="decimal"
      value={text}
      disabled={disabled}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') {
          setText(shown);
          report(undefined);
        }
      }}
    />
  );
}
