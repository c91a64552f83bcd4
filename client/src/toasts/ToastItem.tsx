import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloseIcon from '@mui/icons-material/Close';
import ErrorIcon from '@mui/icons-material/Error';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import InfoIcon from '@mui/icons-material/Info';
import ReportIcon from '@mui/icons-material/Report';
import WarningIcon from '@mui/icons-material/Warning';
import { type CSSProperties, type KeyboardEvent, type PointerEvent, useRef, useState } from 'react';
import { ACTION_RESPONSE_COLOURS, SEVERITY_COLOURS, TOAST_SWIPE_THRESHOLD_PX } from '../../../shared/common/spec-constants';
import type { Translate } from '../i18n/translate';
import { formatTriggeredAt } from './format';
import type { CloseReason, ToastEntry } from './toast-store';
import { ownEntry } from '../../../shared/common/own-entry';

const SEVERITY_ICONS = {
  INFO: <InfoIcon fontSize="small" />,
  WARNING: <WarningIcon fontSize="small" />,
  ERROR: <ErrorIcon fontSize="small" />,
  CRITICAL: <ReportIcon fontSize="small" />,
} as const;
const ACTION_ICONS = {
  SUCCESS: <CheckCircleIcon fontSize="small" />,
  FAILURE: <HighlightOffIcon fontSize="small" />,
  PENDING: <HourglassTopIcon fontSize="small" />,
} as const;

/** Pointer travel before a press becomes a swipe (and no longer a click). */
const DRAG_START_PX = 6;

export interface ToastItemProps {
  toast: ToastEntry;
  locale: string;
  translate: Translate;
  onClose: (id: string, reason: CloseReason) => void;
  onClickThrough: (toast: ToastEntry) => void;
  onAcknowledge: (toast: ToastEntry) => void;
  onMute: (toast: ToastEntry) => void;
}

export function ToastItem({ toast, locale, translate, onClose, onClickThrough, onAcknowledge, onMute }: ToastItemProps) {
  const [dx, setDx] = useState(0);
  const drag = useRef<{ x: number; y: number; pointerId: number; swiping: boolean } | null>(null);
  const suppressClick = useRef(false);
  const titleId = `toast-title-${toast.id}`;
  const isOpen = toast.state === 'open';

  const onPointerDown = (e: PointerEvent<HTMLLIElement>) => {
    if (!isOpen || (e.pointerType === 'mouse' && e.button !== 0)) return;
    drag.current = { x: e.clientX, y: e.clientY, pointerId: e.pointerId, swiping: false };
    suppressClick.current = false;
  };

  const onPointerMove = (e: PointerEvent<HTMLLIElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    const moved = e.clientX - d.x;
    if (!d.swiping) {
      if (Math.abs(moved) < DRAG_START_PX || Math.abs(moved) < Math.abs(e.clientY - d.y)) return;
      d.swiping = true;
      suppressClick.current = true;
      e.currentTarget.setPointerCapture(e.pointerId);
    }
    // Only a swipe to the right (towards the edge) dismisses.
    setDx(Math.max(0, moved));
  };

  const endDrag = (e: PointerEvent<HTMLLIElement>, cancelled: boolean) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    drag.current = null;
    if (!d.swiping) return;
    const distance = Math.max(0, e.clientX - d.x);
    setDx(0);
    if (!cancelled && distance >= TOAST_SWIPE_THRESHOLD_PX) onClose(toast.id, 'swipe');
  };

  const onClick = () => {
    if (suppressClick.current) {
      suppressClick.current = false;
      return;
    }
    if (isOpen) onClickThrough(toast);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>) => {
    if (!isOpen) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      const list = e.currentTarget.parentElement;
      const next = (e.currentTarget.nextElementSibling ?? e.currentTarget.previousElementSibling) as HTMLElement | null;
      onClose(toast.id, 'escape');
      // Keep the keyboard in the toast area.
      (next && next.dataset.state === 'open' ? next : (list?.closest('[role="region"]') as HTMLElement | null))?.focus();
    } else if (e.key === 'Enter' && e.target === e.currentTarget) {
      e.preventDefault();
      onClickThrough(toast);
    }
  };

  const icon =
    (toast.actionResponse ? ownEntry(ACTION_ICONS, toast.actionResponse) : undefined) ?? ownEntry(SEVERITY_ICONS, toast.severity) ?? SEVERITY_ICONS.INFO;
  const style = {
    '--toast-colour': ownEntry(SEVERITY_COLOURS, toast.severity) ?? SEVERITY_COLOURS.INFO,
    ...(toast.actionResponse ? { '--toast-action-colour': ownEntry(ACTION_RESPONSE_COLOURS, toast.actionResponse) } : {}),
    ...(dx ? { transform: `translateX(${dx}px)`, opacity: Math.max(0.3, 1 - dx / (TOAST_SWIPE_THRESHOLD_PX * 4)) } : {}),
  } as CSSProperties;
  const urgent = toast.severity === 'ERROR' || toast.severity === 'CRITICAL';
  const when = formatTriggeredAt(toast.triggeredAt.timestamp, toast.triggeredAt.timezone, locale);
  const timestamp = new Date(toast.triggeredAt.timestamp);

  return (
    <li
      className="toast"
      style={style}
      tabIndex={isOpen ? 0 : -1}
      role={urgent ? 'alert' : 'status'}
      aria-labelledby={titleId}
      aria-hidden={!isOpen || undefined}
      data-testid="toast"
      data-toast-id={toast.id}
      data-state={toast.state}
      data-type={toast.type}
      data-severity={toast.severity}
      data-alarm-state={toast.alarm?.state}
      data-trigger={toast.alarm?.trigger_cuid}
      data-action-response={toast.actionResponse}
      data-swiping={dx > 0 || undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={(e) => endDrag(e, false)}
      onPointerCancel={(e) => endDrag(e, true)}
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      <span className="toast-icon" data-action-response={toast.actionResponse} aria-hidden="true">
        {icon}
      </span>
      <div className="toast-body">
        <div className="toast-title" id={titleId}>
          <span className="sr-only">
            {translate(toast.actionResponse ? `portal.toasts.action.${toast.actionResponse}` : `portal.toasts.severity.${toast.severity}`)}:{' '}
          </span>
          {toast.title}
        </div>
        {toast.message && <div className="toast-message">{toast.message}</div>}
        <div className="toast-footer">
          {when && (
            <div className="toast-meta">
              <time dateTime={Number.isNaN(timestamp.getTime()) ? undefined : timestamp.toISOString()}>{when}</time>
              {' · '}
              <span data-testid="toast-timezone">{toast.triggeredAt.timezone}</span>
            </div>
          )}
          {toast.type === 'NOTIFICATION' && (toast.source || toast.alarm) && (
            <div className="toast-actions">
              <button
                type="button"
                data-testid="toast-acknowledge"
                onClick={(e) => {
                  e.stopPropagation();
                  onAcknowledge(toast);
                }}
              >
                {translate('portal.toasts.acknowledge')}
              </button>
              {(toast.alarm || toast.source?.system_cuid) && (
                <button
                  type="button"
                  data-testid="toast-mute"
                  title={translate(toast.alarm ? 'portal.alarms.toast_mute_title' : 'portal.toasts.mute_title')}
                  onClick={(e) => {
                    e.stopPropagation();
                    onMute(toast);
                  }}
                >
                  {translate('portal.toasts.mute')}
                </button>
              )}
            </div>
          )}
        </div>
      </div>
      <button
        type="button"
        className="toast-close"
        aria-label={translate('portal.toasts.close')}
        title={translate('portal.toasts.close')}
        data-testid="toast-close"
        onClick={(e) => {
          e.stopPropagation();
          onClose(toast.id, 'close-button');
        }}
      >
        <CloseIcon fontSize="small" />
      </button>
    </li>
  );
}
