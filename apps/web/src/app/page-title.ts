import { useDocumentTitle } from '@mantine/hooks';

export const PRODUCT_NAME = 'ClinicRelay';

/** Names the browser tab after the page ("Intake · ClinicRelay"); a message page passes its subject. */
export function usePageTitle(name: string | null | undefined): void {
  useDocumentTitle(name ? `${name} · ${PRODUCT_NAME}` : PRODUCT_NAME);
}
