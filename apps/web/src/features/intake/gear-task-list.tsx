import { useSyncExternalStore } from 'react';
import { ActionIcon, Anchor, Badge, Button, Group, Indicator, Popover, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { splitAddresses } from '@clinicrelay/contracts/messages.ts';
import { useSession } from '../../app/session-context.ts';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { formatDateTime } from '../../components/format.ts';
import { gearTasksOf, type GearTask, type GearTaskStore } from './gear-tasks.ts';
import { GearIcon } from './intake-icons.tsx';

/** The signed-in user's gear task store and its current tasks. */
export function useGearTasks(): [GearTaskStore, readonly GearTask[]] {
  const { profile } = useSession();
  const store = gearTasksOf(profile.userId);
  const tasks = useSyncExternalStore(store.subscribe, store.snapshot, store.snapshot);
  return [store, tasks];
}

function TaskState({ task }: { task: GearTask }) {
  if (task.worker.inProgress) return <Badge color="blue" variant="light">In progress</Badge>;
  if (task.worker.inError) return <Badge color="red" variant="light">Failed</Badge>;
  return <Badge color="teal" variant="light">Done</Badge>;
}

/** The gear button: background exports and prints, newest first. */
export function GearTaskList() {
  const [store, tasks] = useGearTasks();
  const running = tasks.filter((t) => t.worker.inProgress).length;
  return (
    // The Indicator wraps the Popover: the Popover's target gets aria-expanded, which only the button may carry.
    <Indicator disabled={running === 0} label={running} size={16}>
      <Popover position="bottom-end" width={380} shadow="md" withinPortal>
        <Popover.Target>
          <ActionIcon variant="default" size="lg" aria-label="Background tasks">
            <GearIcon />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs" aria-label="Background tasks list">
            {tasks.length === 0 && <Text size="sm" c="dimmed">No background tasks.</Text>}
            {tasks.map((task) => (
              <Group key={task.id} justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500}>
                    {task.content}
                  </Text>
                  <Anchor component={Link} to={task.href} size="xs" truncate>
                    {task.message.subject || '(no subject)'}
                  </Anchor>
                  <Text size="xs" c="dimmed" truncate>
                    {displayAddress(task.message.from)} → {splitAddresses(task.message.to).map(displayAddress).join('; ')} · {formatDateTime(task.date)}
                  </Text>
                </Stack>
                <TaskState task={task} />
              </Group>
            ))}
            {tasks.some((t) => !t.worker.inProgress) && (
              <Button size="xs" variant="subtle" onClick={() => store.clearFinished()}>
                Clear finished
              </Button>
            )}
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
