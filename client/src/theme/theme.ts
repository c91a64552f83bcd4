import { defaultTheme, type RaThemeOptions } from 'react-admin';
import type { TBrand } from '../layout/brand';

/** react-admin's light theme in the brand's colours (spec §2: brand assets per domain). */
export function brandTheme(brand: TBrand): RaThemeOptions {
  return {
    ...defaultTheme,
    palette: {
      ...defaultTheme.palette,
      mode: 'light',
      primary: { main: brand.colors.primary },
      secondary: { main: brand.colors.secondary },
    },
  };
}
