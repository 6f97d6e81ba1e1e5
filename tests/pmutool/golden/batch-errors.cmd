status 2
check
--json
--batch
@DIR@/batch-errors.jsonl
