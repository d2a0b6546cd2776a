import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { ShownError } from './api.js';
import { formatMinor, localTime } from './format.js';
import type { Paged } from './hooks.js';

export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span class="muted">—</span>;
  const { text, utc } = localTime(iso);
  return (
    <time dateTime={iso} title={utc}>
      {text}
    </time>
  );
}

export function Money({ minor, currency }: { minor: number | string | null | undefined; currency: string | null | undefined }) {
  if (minor === null || minor === undefined || !currency) return <span class="muted">—</span>;
  return <span class="money">{formatMinor(minor, currency)}</span>;
}

/** A failed call as the service reported it: message, tRPC code and the offending fields. */
export function ErrorBox({ error }: { error: ShownError | undefined }) {
  if (!error) return null;
  return (
    <div class="error" role="alert">
      <strong>{error.message}</strong>
      {error.code && <span class="code"> ({error.code})</span>}
      {error.issues.length > 0 && (
        <ul>
          {error.issues.map((i) => (
            <li key={`${i.path}:${i.message}`}>
              <code>{i.path || '(input)'}</code>: {i.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/**
 * A labelled control: the label names it through `for`, so its accessible name is
 * the label alone (a wrapping label would add the control's value), and the hint
 * describes it.
 */
export function Field({
  label,
  children,
  hint,
}: {
  label: string;
  children: (ids: { id: string; describedBy: string | undefined }) => ComponentChildren;
  hint?: string | undefined;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div class="field">
      <label class="label" for={id}>
        {label}
      </label>
      {children({ id, describedBy: hintId })}
      {hint && (
        <span class="hint" id={hintId}>
          {hint}
        </span>
      )}
    </div>
  );
}

export function Select<T extends string>({
  label,
  value,
  options,
  onChange,
  any,
}: {
  label: string;
  value: T | '';
  options: readonly (T | { value: T; text: string })[];
  onChange: (value: T | '') => void;
  any?: string;
}) {
  return (
    <Field label={label}>
      {({ id }) => (
        <select id={id} value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value as T | '')}>
          {any !== undefined && <option value="">{any}</option>}
          {options.map((o) => {
            const { value: v, text } = typeof o === 'string' ? { value: o, text: o } : o;
            return (
              <option key={v} value={v}>
                {text}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}

export function TextInput({
  label,
  value,
  onInput,
  hint,
  type = 'text',
  ...rest
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: string;
  type?: 'text' | 'search' | 'email' | 'number' | 'password';
  required?: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  pattern?: string;
  placeholder?: string;
  autoComplete?: string;
}) {
  return (
    <Field label={label} {...(hint ? { hint } : {})}>
      {/* One input element for every text-like type; Preact's per-type attribute union cannot follow a variable type. */}
      {({ id, describedBy }) => (
        <input
          {...rest}
          id={id}
          aria-describedby={describedBy}
          type={type as 'text'}
          value={value}
          onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
        />
      )}
    </Field>
  );
}

/** A destructive action asks first; the question takes focus so Enter/Escape work from the keyboard. */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  disabled,
}: {
  label: string;
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancel.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button type="button" class="danger" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <span
      class="confirm"
      role="group"
      aria-label={question}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setAsking(false);
      }}
    >
      <span>{question}</span>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {label.toLowerCase()}
      </button>
      <button type="button" ref={cancel} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setDone(true));
      }}
    >
      {done ? 'Copied' : label}
    </button>
  );
}

/** Loading, error and empty states of a paged list around its table, with Previous/Next. */
export function PagedList<T>({
  paged,
  empty,
  caption,
  children,
}: {
  paged: Paged<T>;
  empty: string;
  caption: string;
  children: (items: T[]) => ComponentChildren;
}) {
  const items = paged.data?.items;
  return (
    <section aria-label={caption} aria-busy={paged.loading}>
      <ErrorBox error={paged.error} />
      {items === undefined ? paged.loading && <p class="muted">Loading…</p> : items.length === 0 ? <Empty>{empty}</Empty> : children(items)}
      <nav class="pager" aria-label={`${caption} pages`}>
        {(paged.previous || paged.next) && (
          <>
            <button type="button" disabled={!paged.previous} onClick={paged.previous}>
              Previous
            </button>
            <span>Page {paged.pageNumber}</span>
            <button type="button" disabled={!paged.next} onClick={paged.next}>
              Next
            </button>
          </>
        )}
        <button type="button" onClick={paged.reload} aria-label={`Refresh ${caption.toLowerCase()}`}>
          Refresh
        </button>
      </nav>
    </section>
  );
}

/** A form that never navigates: submit runs `onSubmit`. */
export function Form({ label, onSubmit, children }: { label: string; onSubmit: () => void; children: ComponentChildren }) {
  return (
    <form
      class="inline-form"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

export const short = (id: string) => id.slice(0, 8);

export function Id({ id }: { id: string }) {
  return (
    <code class="id" title={id}>
      {short(id)}
    </code>
  );
}

/** A detail panel; it takes focus when it opens (or shows another record), so keyboard users land on it. */
export function DetailSection({ label, subject, children }: { label: string; subject: string; children: ComponentChildren }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [subject]);
  return (
    <section class="detail" aria-label={label} tabIndex={-1} ref={ref}>
      {children}
    </section>
  );
}

export interface Column<T> {
  header: string;
  /** The header is read by screen readers only (an actions column). */
  hiddenHeader?: boolean;
  /** The cell names its row (`<th scope="row">`). */
  rowHeader?: boolean;
  cell: (row: T) => ComponentChildren;
}

/** A table of records: one column definition per field, the selected row marked. */
export function Table<T>({
  rows,
  columns,
  rowKey,
  selected,
}: {
  rows: readonly T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  selected?: string | undefined;
}) {
  return (
    <table>
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c.header}>
              {c.hiddenHeader ? <span class="sr-only">{c.header}</span> : c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const key = rowKey(row);
          return (
            <tr key={key} class={key === selected ? 'selected' : undefined}>
              {columns.map((c) =>
                c.rowHeader ? (
                  <th scope="row" key={c.header}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.header}>{c.cell(row)}</td>
                ),
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The "Details" button of a list row; its accessible name says which record it opens. */
export const DetailsButton = ({ label, onClick }: { label: string; onClick: () => void }) => (
  <button type="button" onClick={onClick} aria-label={label}>
    Details
  </button>
);

/** A value that may be absent: a dash, muted. */
export const Maybe = ({ children }: { children: ComponentChildren }) =>
  children === null || children === undefined || children === '' ? <span class="muted">—</span> : <>{children}</>;
