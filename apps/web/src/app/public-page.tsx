import type { ReactNode } from 'react';
import { Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from './page-title.ts';

interface PublicPageProps {
  /** The page's h1. */
  title: string;
  children: ReactNode;
}

/** The centered card every page outside the signed-in layout uses (sign-in, outcomes, errors). */
export function PublicPage({ title, children }: PublicPageProps) {
  usePageTitle(title);
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={420}>
        <Stack gap="lg">
          <Box ta="center">
            <Text fw={700} fz={26} c="teal.8" lh={1.2}>
              ClinicRelay
            </Text>
            <Text size="sm" c="dimmed">
              Secure health information exchange
            </Text>
          </Box>
          <Title order={1} fz="h3" ta="center">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
