// A progress bar for a running request (aria-valuenow/max when the server said them) and its
// Cancel button.
import type { ProgressEvent } from './types';

export function ProgressBar(props: { progress: ProgressEvent | undefined; label: string }) {
  const { progress } = props;
  const total = progress?.total;
  const known = progress !== undefined && total !== undefined && total > 0;
  const percent = known ? Math.min(100, (progress.progress / total) * 100) : undefined;
  return (
    <div class="progress-wrap">
      <div
        class={known ? 'progress' : 'progress indeterminate'}
        role="progressbar"
        aria-label={props.label}
        aria-valuemin={0}
        {...(known ? { 'aria-valuenow': progress.progress, 'aria-valuemax': total } : {})}
        {...(progress?.message === undefined ? {} : { 'aria-valuetext': progress.message })}
      >
        <div class="bar" style={percent === undefined ? undefined : { width: `${percent}%` }} />
      </div>
      <span class="progress-text">
        {progress === undefined
          ? 'Running…'
          : `${progress.progress}${total === undefined ? '' : ` / ${total}`}${
              progress.message === undefined ? '' : ` — ${progress.message}`
            }`}
      </span>
    </div>
  );
}
