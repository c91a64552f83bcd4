import { useQuery } from '@tanstack/react-query';
import { trpc } from '../trpc';

/** The map's tile settings (fleet.mapSettings), asked once a session. */
export function useMapSettings() {
  return useQuery({
    queryKey: ['fleet.mapSettings'],
    queryFn: ({ signal }) => trpc.fleet.mapSettings.query(undefined, { signal }),
    staleTime: Infinity,
    retry: false,
  });
}
