// Every failure of an async step is shown in a role="alert" (the contract's last UI rule):
// components report through this context, the app shows the list (each can be dismissed).
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export interface Alert {
  id: number;
  message: string;
}

/** Reports a failure to the user; `undefined` outside the app (then it is dropped). */
export const ReportContext = createContext<(message: string) => void>(() => undefined);

/** The function that shows a failure in the alert list. */
export function useReport(): (message: string) => void {
  return useContext(ReportContext);
}

/** The list of failures, newest last. */
export function Alerts(props: { alerts: Alert[]; onDismiss: (id: number) => void }) {
  if (props.alerts.length === 0) return null;
  return (
    <div class="alerts">
      {props.alerts.map((alert) => (
        <div class="alert" role="alert" key={alert.id}>
          <span>{alert.message}</span>
          <button
            type="button"
            class="small"
            aria-label="Dismiss"
            onClick={() => {
              props.onDismiss(alert.id);
            }}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
