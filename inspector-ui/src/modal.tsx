// A modal <dialog> (the browser makes the rest of the page inert while it is open), named by its
// heading.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Modal(props: {
  id: string;
  title: string;
  /** What Escape does; without it Escape does nothing (the user must choose a button). */
  onEscape?: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const onEscape = useRef(props.onEscape);
  onEscape.current = props.onEscape;
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return undefined;
    if (!dialog.open) dialog.showModal();
    const escape = (event: Event) => {
      event.preventDefault();
      onEscape.current?.();
    };
    dialog.addEventListener('cancel', escape);
    return () => {
      dialog.removeEventListener('cancel', escape);
      if (dialog.open) dialog.close();
    };
  }, []);
  return (
    <dialog ref={ref} class="modal" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.children}
    </dialog>
  );
}
