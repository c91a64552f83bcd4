import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { TToast } from '../../../server/src/alerts/portal/portal.schema';
import { messageOf, trpc } from '../trpc';
import { invalidate, staleQueriesOf, unwrapLiveEvent } from './live-events';

// The toasts' calls: the live events of the signed-in user, and what a toast's buttons do
// (acknowledge, mute its alarm's trigger or its notification's source).

/** The live connection as the viewport shows it (data-live): off, connecting or open. */
export type LiveState = 'off' | 'connecting' | 'open';

/**
 * The signed-in user's live events (portalNotification.onEvent, over SSE) while `userCuid` is set.
 * An event that says data changed invalidates those queries through the query client
 * (live-events.ts); each toast goes to `onToast`. Give a stable `onToast` (useCallback): a new
 * one subscribes again.
 */
export function useLiveEvents(userCuid: string | undefined, onToast: (toast: TToast) => void): LiveState {
  const queryClient = useQueryClient();
  // The state of the subscription of one user; another user (or none) has not connected yet.
  const [live, setLive] = useState<{ user: string | undefined; state: LiveState }>({ user: undefined, state: 'off' });
  useEffect(() => {
    if (!userCuid) return;
    const set = (state: LiveState) => setLive({ user: userCuid, state });
    const subscription = trpc.portalNotification.onEvent.subscribe(undefined, {
      onStarted: () => set('open'),
      onConnectionStateChange: (state) => set(state.state === 'pending' ? 'open' : state.state === 'connecting' ? 'connecting' : 'off'),
      onData: (value: unknown) => {
        const event = unwrapLiveEvent(value);
        if (!event) return;
        void invalidate(queryClient, staleQueriesOf(event));
        if (event.kind === 'toast') onToast(event.toast);
      },
      onError: (error: unknown) => {
        set('off');
        console.warn('Live events:', messageOf(error));
      },
    });
    return () => {
      subscription.unsubscribe();
      setLive({ user: undefined, state: 'off' });
    };
  }, [userCuid, onToast, queryClient]);
  if (!userCuid) return 'off';
  return live.user === userCuid ? live.state : 'connecting';
}

/** Acknowledges what a toast shows: an alarm (NotificationUserHistory) or a portal notification (its own history). */
export function useAcknowledgeToast() {
  return useMutation({
    mutationFn: async (toast: Pick<TToast, 'alarm' | 'source'>): Promise<void> => {
      if (toast.alarm) await trpc.alarm.acknowledge.mutate({ notification_cuid: toast.alarm.notification_cuid });
      else if (toast.source) await trpc.portalNotification.acknowledge.mutate({ notification_cuid: toast.source.notification_cuid });
    },
  });
}

/** Mutes an alarm's trigger until a time; the answer is the session context to put in place. */
export function useMuteTrigger() {
  return useMutation({ mutationFn: (input: { trigger_cuid: string; until: Date }) => trpc.alarm.mute.mutate(input) });
}

export type PortalMuteInput = Parameters<typeof trpc.portalNotification.mute.mutate>[0];

/** Mutes a portal notification's source (a system and a type); the answer is the session context to put in place. */
export function useMuteNotificationSource() {
  return useMutation({ mutationFn: (input: PortalMuteInput) => trpc.portalNotification.mute.mutate(input) });
}
