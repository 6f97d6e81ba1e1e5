status 2
<@DIR@/batch-errors.jsonl
--batch=-
check
