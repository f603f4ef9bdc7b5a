"""The plain alternative of the `transformer` backend's fit: a Hugging Face ``Trainer`` with the
same epochs, batch size, learning rate and weight decay; fp32; no evaluation; default data loading.
Prints Trainer's own train_samples_per_second (its loop alone).

    python bench/plain/trainer_fit.py MODEL_FOLDER DATA.csv EPOCHS BATCH_SIZE LR MAX_LENGTH
"""

import sys
import tempfile
import warnings

import pandas as pd
import transformers
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    PrinterCallback,
    Trainer,
    TrainingArguments,
)

transformers.logging.set_verbosity_error()
warnings.filterwarnings("ignore", message=".*pin_memory.*")
folder, data, epochs, batch_size, lr, max_length = sys.argv[1:7]
frame = pd.read_csv(data)
labels = frame["label"].tolist()
tokenizer = AutoTokenizer.from_pretrained(folder)
model = AutoModelForSequenceClassification.from_pretrained(folder, num_labels=max(labels) + 1)
encoded = tokenizer(frame["text"].tolist(), truncation=True, max_length=int(max_length))
dataset = [
    {"input_ids": ids, "attention_mask": mask, "labels": int(label)}
    for ids, mask, label in zip(
        encoded["input_ids"], encoded["attention_mask"], labels, strict=True
    )
]
with tempfile.TemporaryDirectory() as out:
    arguments = TrainingArguments(
        output_dir=out,
        num_train_epochs=int(epochs),
        per_device_train_batch_size=int(batch_size),
        learning_rate=float(lr),
        weight_decay=0.01,
        eval_strategy="no",
        save_strategy="no",
        logging_strategy="no",
        report_to=[],
        disable_tqdm=True,
        seed=0,
    )
    trainer = Trainer(
        model=model, args=arguments, train_dataset=dataset, processing_class=tokenizer
    )
    trainer.remove_callback(PrinterCallback)  # it prints the final metrics dict
    print(trainer.train().metrics["train_samples_per_second"])
