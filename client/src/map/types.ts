import type { z } from 'zod';
import type { ZMapPin } from '../../../server/src/fleet/fleet.schema';

/** A site on the map (fleet.overview's `pins`). */
export type MapPin = z.infer<typeof ZMapPin>;

export interface SiteMapProps {
  pins: readonly MapPin[];
  /** CSS height of the map (width follows the container). */
  height?: number | string;
  /** Called when a pin is chosen (click, Enter); default: open the site's systems. */
  onPinClick?: (pin: MapPin) => void;
}
