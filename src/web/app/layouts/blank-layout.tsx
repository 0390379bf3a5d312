/** The blank layout: the page alone, centred, for sign-in, public and error screens. */
import Box from '@mui/material/Box';
import { Outlet } from 'react-router';

export function BlankLayout() {
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Outlet />
    </Box>
  );
}
