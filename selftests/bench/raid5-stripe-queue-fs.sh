#!/bin/bash
# raid5-stripe-queue with file systems on the array: its workloads EF, EJ
# (ext4) and XF, XJ (XFS) by default, the same knobs (sq.confs, sq.sqs,
# sq.wl, sq.mib). bench.sh builds the kernels with raid5-stripe-queue-fs.config
# (ext4 and XFS built in); the guest has mke2fs and mkfs.xfs.
SQ_DEFAULT_WL="EF EJ XF XJ" exec bash /bench/raid5-stripe-queue.sh
