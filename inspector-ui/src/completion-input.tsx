// A text input that asks the server for completions as the user types (debounced 150 ms) and
// shows them as a listbox under it (the ARIA combobox pattern: arrows move, Enter picks).
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from './api';

export function CompletionInput(props: {
  id: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  /** Asks the server; undefined when it cannot complete (no completions capability). */
  complete: ((value: string) => Promise<string[]>) | undefined;
  required: boolean;
  describedBy?: string;
}) {
  const { id, value, onChange, complete } = props;
  const [options, setOptions] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [problem, setProblem] = useState('');
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(0);
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
    },
    [],
  );

  const ask = (text: string) => {
    if (complete === undefined) return;
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      const mine = ++latest.current;
      complete(text).then(
        (values) => {
          if (mine !== latest.current) return; // an older answer arrived late
          setOptions(values);
          setActive(-1);
          setProblem('');
          // Nothing to suggest once the text is the one suggestion.
          setOpen(values.length > 0 && !(values.length === 1 && values[0] === text));
        },
        (error: unknown) => {
          if (mine === latest.current) setProblem(`Completion failed: ${errorText(error)}`);
        },
      );
    }, 150);
  };
  const pick = (option: string) => {
    onChange(option);
    setOpen(false);
  };
  const listId = `${id}-options`;
  return (
    <div class="combo">
      <input
        id={id}
        name={props.name}
        value={value}
        autocomplete="off"
        required={props.required}
        aria-required={props.required}
        {...(props.describedBy === undefined ? {} : { 'aria-describedby': props.describedBy })}
        {...(complete === undefined
          ? {}
          : {
              role: 'combobox',
              'aria-autocomplete': 'list',
              'aria-expanded': open,
              'aria-controls': listId,
              ...(open && active >= 0 ? { 'aria-activedescendant': `${listId}-${active}` } : {}),
            })}
        onInput={(event) => {
          const text = event.currentTarget.value;
          onChange(text);
          ask(text);
        }}
        onFocus={() => {
          ask(value);
        }}
        onBlur={() => {
          // Later than a click on an option, which must still see the list.
          window.setTimeout(() => {
            setOpen(false);
          }, 150);
        }}
        onKeyDown={(event) => {
          if (!open) return;
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setActive((active + 1) % options.length);
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((active - 1 + options.length) % options.length);
          } else if (event.key === 'Enter' && active >= 0) {
            event.preventDefault();
            const option = options[active];
            if (option !== undefined) pick(option);
          } else if (event.key === 'Escape') {
            setOpen(false);
          }
        }}
      />
      {open ? (
        <ul class="listbox" role="listbox" id={listId} aria-label={`Suggestions for ${props.name}`}>
          {options.map((option, i) => (
            <li
              key={option}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                pick(option);
              }}
            >
              {option}
            </li>
          ))}
        </ul>
      ) : null}
      {problem === '' ? null : (
        <p role="alert" class="error">
          {problem}
        </p>
      )}
    </div>
  );
}
