status 2
check
--batch
@DIR@/batch.jsonl
0xf0
