status 0
check
--batch
@DIR@/batch.jsonl
