/**
 * One record's screen (edit, detail) while it loads, when it does not exist, when it fails, and when it
 * is there:
 *
 *   <RecordView query={useProduct(id)} backTo="/products" backLabel="products.backToList" height={360}>
 *     {(product) => <ProductForm product={product} … />}
 *   </RecordView>
 *
 * A 404 shows the server's message and a way back (NotFoundCard); another failure offers Retry.
 */
import ArrowBack from '@mui/icons-material/ArrowBack';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { RetryAlert } from '../retry-alert';

/** What a record's screen shows when it does not exist: the (translated) message and a way back. */
export function NotFoundCard({ message, backTo, backLabel }: { message: string; backTo: string; backLabel: string }) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardContent sx={{ textAlign: 'center', py: 6 }}>
        <Typography variant="h6" component="p" role="alert" data-testid="not-found">
          {message}
        </Typography>
        <Button component={RouterLink} to={backTo} startIcon={<ArrowBack />} sx={{ mt: 2 }}>
          {t(backLabel)}
        </Button>
      </CardContent>
    </Card>
  );
}

export interface RecordViewProps<T> {
  query: UseQueryResult<T>;
  /** where "back" goes from a missing record, and its i18n label */
  backTo: string;
  backLabel: string;
  /** height of the placeholder while loading, about the form's */
  height?: number;
  children: (record: T) => ReactNode;
}

export function RecordView<T>({ query, backTo, backLabel, height = 320, children }: RecordViewProps<T>) {
  const { t } = useTranslation();
  if (query.isPending) return <Skeleton variant="rounded" height={height} />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.httpStatus === 404) {
      return <NotFoundCard message={errorMessage(t, query.error)} backTo={backTo} backLabel={backLabel} />;
    }
    return <RetryAlert error={query.error} retry={() => void query.refetch()} />;
  }
  return <>{children(query.data)}</>;
}
