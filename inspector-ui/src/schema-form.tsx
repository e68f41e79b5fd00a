// The form generator: one labelled field per property of a JSON Schema object, for tool
// arguments and elicitation answers (the contract's "UI conventions", Tools tab). The value is the
// JSON object itself; a field left empty is left out of it. Labels start with the property name
// (then ` — <title>`); the required mark `*` is hidden from the accessible name, aria-required
// says it instead.
import { useEffect, useState } from 'preact/hooks';
import {
  boundsOf,
  choicesOf,
  constraintsOf,
  htmlPattern,
  initialValue,
  inputTypeOf,
  isRecord,
  kindOf,
  patternProblem,
  unwrapNullable,
} from './schema';
import type { JsonSchema } from './types';

interface FieldProps {
  /** The property name: the start of the label. */
  name: string;
  schema: JsonSchema;
  value: unknown;
  /** `undefined` leaves the property out. */
  onChange: (value: unknown) => void;
  required: boolean;
  id: string;
}

/** The fields of an object schema's properties (no fieldset around them). */
export function SchemaFields(props: {
  schema: JsonSchema | undefined;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  idPrefix: string;
}) {
  const { schema, value, onChange, idPrefix } = props;
  const properties = Object.entries(schema?.properties ?? {});
  if (properties.length === 0) {
    return <p class="muted">No arguments.</p>;
  }
  const required = new Set(schema?.required ?? []);
  return (
    <>
      {properties.map(([name, prop]) => (
        <Field
          key={name}
          name={name}
          schema={unwrapNullable(prop)}
          value={value[name]}
          required={required.has(name)}
          id={`${idPrefix}-${safeId(name)}`}
          onChange={(next) => {
            const copy = Object.fromEntries(Object.entries(value).filter(([k]) => k !== name));
            if (next !== undefined) copy[name] = next;
            onChange(copy);
          }}
        />
      ))}
    </>
  );
}

function Field(props: FieldProps) {
  switch (kindOf(props.schema)) {
    case 'string':
      return <StringField {...props} />;
    case 'number':
    case 'integer':
      return <NumberField {...props} />;
    case 'boolean':
      return <BooleanField {...props} />;
    case 'choice':
      return <ChoiceField {...props} />;
    case 'array':
      return <ArrayField {...props} />;
    case 'object':
      return <ObjectField {...props} />;
    case 'json':
      return <JsonField {...props} />;
  }
}

/** `name` or `name — title`, with the required mark outside the accessible name. */
function LabelText(props: { name: string; schema: JsonSchema; required: boolean }) {
  const { name, schema, required } = props;
  return (
    <>
      <span class="prop">{name}</span>
      {schema.title !== undefined && schema.title !== name ? ` — ${schema.title}` : ''}
      {required ? (
        <span class="required" aria-hidden="true" title="required">
          {' '}
          *
        </span>
      ) : null}
    </>
  );
}

/**
 * A field's label: its text is exactly `name` or `name — title`; the required mark sits beside
 * it, outside the label (aria-required on the field says it to assistive technology).
 */
function Label(props: { for: string; name: string; schema: JsonSchema; required: boolean }) {
  return (
    <div class="label-row">
      <label for={props.for}>
        <LabelText name={props.name} schema={props.schema} required={false} />
      </label>
      {props.required ? <RequiredMark /> : null}
    </div>
  );
}

/** The `*` of a required field, hidden from the accessible name. */
export function RequiredMark() {
  return (
    <span class="required" aria-hidden="true" title="required">
      *
    </span>
  );
}

/** The description and the constraints HTML does not show, under a field. */
function Hint(props: { id: string; schema: JsonSchema; extra?: string }) {
  const { schema } = props;
  const constraints = constraintsOf(schema);
  const parts = [schema.description, constraints, props.extra].filter(
    (p): p is string => p !== undefined && p !== '',
  );
  if (parts.length === 0) return null;
  return (
    <p class="hint" id={props.id}>
      {parts.join(' — ')}
    </p>
  );
}

function describedBy(props: FieldProps): string | undefined {
  return props.schema.description !== undefined || constraintsOf(props.schema) !== ''
    ? `${props.id}-hint`
    : undefined;
}

function StringField(props: FieldProps) {
  const { schema, id, required, value, onChange } = props;
  const text = typeof value === 'string' ? value : '';
  const common = {
    id,
    name: props.name,
    value: text,
    required,
    'aria-required': required,
    'aria-describedby': describedBy(props),
    ...(schema.minLength === undefined ? {} : { minLength: schema.minLength }),
    ...(schema.maxLength === undefined ? {} : { maxLength: schema.maxLength }),
    onInput: (event: Event) => {
      const target = event.currentTarget as HTMLInputElement | HTMLTextAreaElement;
      target.setCustomValidity(patternProblem(schema.pattern, target.value));
      onChange(target.value === '' ? undefined : target.value);
    },
  };
  const long =
    schema.format === undefined && schema.pattern === undefined && (schema.maxLength ?? 0) > 256;
  return (
    <div class="field">
      <Label for={id} name={props.name} schema={schema} required={required} />
      {long ? (
        <textarea rows={3} {...common} />
      ) : (
        <input
          // Preact types input attributes by `type`; those given here suit each of these types.
          {...({ type: inputTypeOf(schema) } as { type: 'text' })}
          {...common}
          {...(htmlPatternOf(schema) === undefined ? {} : { pattern: htmlPatternOf(schema) })}
          {...(schema.format === 'date-time' ? { placeholder: '2026-01-31T12:00:00Z' } : {})}
        />
      )}
      <Hint id={`${id}-hint`} schema={schema} />
    </div>
  );
}

function htmlPatternOf(schema: JsonSchema): string | undefined {
  return schema.pattern === undefined ? undefined : htmlPattern(schema.pattern);
}

function numberText(value: unknown): string {
  return typeof value === 'number' ? String(value) : '';
}

function NumberField(props: FieldProps) {
  const { schema, id, required, value, onChange } = props;
  // The text is kept apart from the value: "1." or "-" are on the way to a number.
  const [text, setText] = useState(numberText(value));
  useEffect(() => {
    if (text === '' ? value !== undefined : Number(text) !== value) setText(numberText(value));
  }, [value]);
  const { min, max } = boundsOf(schema);
  const integer = kindOf(schema) === 'integer';
  return (
    <div class="field">
      <Label for={id} name={props.name} schema={schema} required={required} />
      <input
        type="number"
        id={id}
        name={props.name}
        value={text}
        step={integer ? 1 : 'any'}
        {...(min === undefined ? {} : { min })}
        {...(max === undefined ? {} : { max })}
        required={required}
        aria-required={required}
        aria-describedby={describedBy(props)}
        inputMode={integer ? 'numeric' : 'decimal'}
        onInput={(event) => {
          const raw = event.currentTarget.value;
          setText(raw);
          const parsed = raw === '' ? undefined : Number(raw);
          onChange(parsed === undefined || Number.isNaN(parsed) ? undefined : parsed);
        }}
      />
      <Hint id={`${id}-hint`} schema={schema} />
    </div>
  );
}

function BooleanField(props: FieldProps) {
  const { schema, id, required, value, onChange } = props;
  return (
    <div class="field check">
      <input
        type="checkbox"
        id={id}
        name={props.name}
        checked={value === true}
        aria-required={required}
        aria-describedby={describedBy(props)}
        onChange={(event) => {
          onChange(event.currentTarget.checked);
        }}
      />
      <Label for={id} name={props.name} schema={schema} required={required} />
      <Hint id={`${id}-hint`} schema={schema} />
    </div>
  );
}

function ChoiceField(props: FieldProps) {
  const { schema, id, required, value, onChange } = props;
  const choices = choicesOf(schema) ?? [];
  const key = JSON.stringify(value ?? null);
  const selected =
    value === undefined ? -1 : choices.findIndex((c) => JSON.stringify(c.value) === key);
  return (
    <div class="field">
      <Label for={id} name={props.name} schema={schema} required={required} />
      <select
        id={id}
        name={props.name}
        required={required}
        aria-required={required}
        aria-describedby={describedBy(props)}
        value={String(selected)}
        onChange={(event) => {
          const index = Number(event.currentTarget.value);
          onChange(index < 0 ? undefined : choices[index]?.value);
        }}
      >
        <option value="-1">{required ? '— choose —' : '(none)'}</option>
        {choices.map((choice, i) => (
          <option key={i} value={String(i)}>
            {choice.label}
          </option>
        ))}
      </select>
      <Hint id={`${id}-hint`} schema={schema} />
    </div>
  );
}

function ArrayField(props: FieldProps) {
  const { schema, id, required, value, onChange, name } = props;
  const items = unwrapNullable(schema.items ?? {});
  const list = Array.isArray(value) ? (value as unknown[]) : [];
  const choices = choicesOf(items);
  const set = (next: unknown[]) => {
    onChange(next.length === 0 && !required ? undefined : next);
  };
  if (choices !== undefined) {
    // Several of a fixed set (multi-select enums, as elicitation forms have them): checkboxes.
    const chosen = new Set(list.map((v) => JSON.stringify(v)));
    return (
      <fieldset class="field" aria-describedby={describedBy(props)}>
        <legend>
          <LabelText name={name} schema={schema} required={required} />
        </legend>
        {choices.map((choice, i) => (
          <div class="check" key={i}>
            <input
              type="checkbox"
              id={`${id}-${i}`}
              checked={chosen.has(JSON.stringify(choice.value))}
              onChange={(event) => {
                const rest = list.filter((v) => JSON.stringify(v) !== JSON.stringify(choice.value));
                set(event.currentTarget.checked ? [...rest, choice.value] : rest);
              }}
            />
            <label for={`${id}-${i}`}>{choice.label}</label>
          </div>
        ))}
        <Hint id={`${id}-hint`} schema={schema} />
      </fieldset>
    );
  }
  return (
    <fieldset class="field array" aria-describedby={describedBy(props)}>
      <legend>
        <LabelText name={name} schema={schema} required={required} />
      </legend>
      <Hint id={`${id}-hint`} schema={schema} />
      {list.map((item, i) => (
        <div class="array-item" key={i}>
          <Field
            name={`${name}[${i}]`}
            schema={items}
            value={item}
            required={false}
            id={`${id}-${i}`}
            onChange={(next) => {
              const copy = [...list];
              copy[i] = next;
              set(copy);
            }}
          />
          <button
            type="button"
            class="small"
            aria-label={`Remove ${name}[${i}]`}
            onClick={() => {
              set(list.filter((_, j) => j !== i));
            }}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        class="small"
        aria-label={`Add item to ${name}`}
        onClick={() => {
          set([...list, freshItem(items)]);
        }}
      >
        + Add item
      </button>
    </fieldset>
  );
}

function freshItem(items: JsonSchema): unknown {
  if (items.default !== undefined) return structuredClone(items.default);
  if (kindOf(items) === 'object') return initialValue(items);
  return undefined;
}

function ObjectField(props: FieldProps) {
  const { schema, id, required, value, onChange, name } = props;
  const object = isRecord(value) ? value : {};
  return (
    <fieldset class="field object" aria-describedby={describedBy(props)}>
      <legend>
        <LabelText name={name} schema={schema} required={required} />
      </legend>
      <Hint id={`${id}-hint`} schema={schema} />
      <SchemaFields
        schema={schema}
        value={object}
        idPrefix={id}
        onChange={(next) => {
          onChange(Object.keys(next).length === 0 && !required ? undefined : next);
        }}
      />
    </fieldset>
  );
}

/** A value the form cannot draw: edited as JSON text. */
function JsonField(props: FieldProps) {
  const { schema, id, required, value, onChange } = props;
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value));
  const [problem, setProblem] = useState('');
  useEffect(() => {
    if (parses(text, value)) return;
    setText(value === undefined ? '' : JSON.stringify(value));
    setProblem('');
  }, [value]);
  return (
    <div class="field">
      <Label for={id} name={props.name} schema={schema} required={required} />
      <textarea
        id={id}
        class="code"
        rows={2}
        value={text}
        required={required}
        aria-required={required}
        aria-invalid={problem !== ''}
        aria-describedby={`${id}-hint`}
        onInput={(event) => {
          const raw = event.currentTarget.value;
          setText(raw);
          if (raw.trim() === '') {
            setProblem('');
            event.currentTarget.setCustomValidity('');
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(raw));
            setProblem('');
            event.currentTarget.setCustomValidity('');
          } catch {
            setProblem('not valid JSON yet');
            event.currentTarget.setCustomValidity('Not valid JSON');
          }
        }}
      />
      <Hint
        id={`${id}-hint`}
        schema={schema}
        extra={problem === '' ? 'JSON' : `JSON: ${problem}`}
      />
    </div>
  );
}

function parses(text: string, value: unknown): boolean {
  if (text.trim() === '') return value === undefined;
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/**
 * The Raw JSON editor beside a form: its text follows the form's value, and each edit that
 * parses to an object becomes the form's value.
 */
export function RawJsonEditor(props: {
  id: string;
  label: string;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  /** Told '' when the text parses to an object, else why not. */
  onProblem: (problem: string) => void;
}) {
  const { value, onChange, id, onProblem } = props;
  const pretty = (v: unknown) => JSON.stringify(v, null, 2);
  const [text, setText] = useState(pretty(value));
  const [problem, setProblem] = useState('');
  useEffect(() => {
    if (parses(text, value)) return;
    setText(pretty(value));
    setProblem('');
    onProblem('');
  }, [value]);
  return (
    <div class="field raw-json">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        class="code"
        rows={Math.min(16, Math.max(4, text.split('\n').length + 1))}
        spellcheck={false}
        value={text}
        aria-invalid={problem !== ''}
        aria-describedby={`${id}-hint`}
        onInput={(event) => {
          const raw = event.currentTarget.value;
          setText(raw);
          try {
            const parsed: unknown = JSON.parse(raw);
            if (!isRecord(parsed)) throw new Error('the arguments are a JSON object: {…}');
            setProblem('');
            onProblem('');
            event.currentTarget.setCustomValidity('');
            onChange(parsed);
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            setProblem(message);
            onProblem(message);
            event.currentTarget.setCustomValidity(message);
          }
        }}
      />
      <p class={problem === '' ? 'hint' : 'hint invalid'} id={`${id}-hint`}>
        {problem === '' ? 'Edits here update the form, and the form updates this.' : problem}
      </p>
    </div>
  );
}

/** Text usable in an id attribute. */
export function safeId(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}
