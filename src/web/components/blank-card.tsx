/** The card of the blank-layout screens (sign-in, errors): brand, language switch, title and content. */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Brand } from './brand';
import { LanguageMenu } from './language-menu';

export function BlankCard({
  title,
  subtitle,
  children,
  width = 440,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  width?: number;
}) {
  const { t } = useTranslation();
  return (
    <Box component="main" sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', p: { xs: 2, sm: 4 } }}>
      <Card sx={{ width: '100%', maxWidth: width }}>
        <CardContent sx={{ p: { xs: 3, sm: 5 }, '&:last-child': { pb: { xs: 3, sm: 5 } } }}>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 3 }}>
            <Brand />
            <LanguageMenu />
          </Box>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: subtitle ? 0.5 : 2 }}>
            {t(title)}
          </Typography>
          {subtitle && (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {t(subtitle)}
            </Typography>
          )}
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}
