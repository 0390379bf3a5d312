import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';

/**
 * Whether the window is a phone's: narrower than the theme's `sm` breakpoint (600 px), where lists draw as
 * cards, dialogs fill the screen and filters are the phone's own selects. Read from the window as the
 * component first draws (`noSsr`: the app is never drawn on the server); without it the first drawing
 * assumes a wide window and a phone draws the component a second time, in its own layout.
 */
export function usePhone(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
}
