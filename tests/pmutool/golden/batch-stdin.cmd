status 0
<@DIR@/batch.jsonl
check
--batch
-
